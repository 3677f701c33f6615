"""The version of this installation of kalah (``kalah.__version__``), apart from the package root so that every layer can name it."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("kalah")
except PackageNotFoundError:  # running from a source tree that was never installed
    __version__ = "0.0.0"
