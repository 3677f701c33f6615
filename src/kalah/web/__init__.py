"""The browser board: a FastAPI app over the game library, with a single page.

``create_app(db_path=...)`` builds the application; ``kalah serve`` runs it
on uvicorn.
"""

from .app import LOOPBACK_HOSTS, create_app
from .levels import LEVELS, available_levels, default_level

__all__ = ["LEVELS", "LOOPBACK_HOSTS", "available_levels", "create_app", "default_level"]
