"""The ``policy:file=PATH`` player: a trained policy network (a NumPy ``.npz`` file) playing its best move.

The file holds a small fully connected network over the observation of
:mod:`kalah.players.encoding` (the board from the player's seat, divided by
the seeds per pit): arrays ``w0, b0, w1, b1, ...`` (ReLU between layers, none
after the last), whose last layer has one output per action, and ``variant``
(pits, seeds, empty capture, pie rule as four integers). The player plays the
legal action with the highest output. :func:`save_policy` writes such a
file; the tutorial ``docs/notebooks/learn.ipynb`` trains one.

The file is read with ``allow_pickle=False`` (a policy file cannot run code)
and checked: array names, shapes, finite numbers, at most
``MAX_FILE_BYTES``. Reading a file is what servers refuse from strangers, so
the player registers as external, as ``replay:file=`` does.

A player is its file's content, not its name: ``policy:file=agent.npz`` is
made as ``policy:file=agent.npz,digest=D``, D the first 16 hex digits of the
file's SHA-256, and that spec is what records, the game library and arenas
keep. A spec with ``digest=`` plays only the file it names: after the file is
trained again it is refused (a new player, not the old one's games), so an
arena never counts an old network's games for a new one.
"""

from __future__ import annotations

import hashlib
import os
import string
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kalah.atomic import write_atomic
from kalah.rules import Move, Position, Variant

from .base import ComputerPlayer
from .encoding import action_count, action_mask, move_of_action, observation, observation_size
from .spec import PlayerSpecError, register_player

if TYPE_CHECKING:
    import numpy as np

MAX_FILE_BYTES = 64 * 1024 * 1024
#: Hex digits of the file's SHA-256 that name a policy in its spec (64 bits: no two trainings meet).
DIGEST_DIGITS = 16


class PolicyFileError(PlayerSpecError):
    """A policy file that cannot be read or does not hold a network for a variant."""


class PolicyNetwork:
    """The network of a policy file: ``logits(observations)`` for a batch of observations (rows)."""

    def __init__(self, variant: Variant, layers: Sequence[tuple[np.ndarray, np.ndarray]], digest: str = "") -> None:
        import numpy as np

        self.variant = variant
        #: The SHA-256 (hex) of the file the network was read from ("" when it was made in memory).
        self.digest = digest
        self.layers = [(np.asarray(w, np.float32), np.asarray(b, np.float32)) for w, b in layers]
        width = observation_size(variant)
        if not self.layers:
            raise PolicyFileError("a policy network needs at least one layer")
        for index, (w, b) in enumerate(self.layers):
            if w.ndim != 2 or w.shape[0] != width or b.shape != (w.shape[1],):
                raise PolicyFileError(
                    f"layer {index} has weights {w.shape} and biases {b.shape}; expected ({width}, n) and (n,)"
                )
            if not (np.isfinite(w).all() and np.isfinite(b).all()):
                raise PolicyFileError(f"layer {index} holds numbers that are not finite")
            width = w.shape[1]
        if width != action_count(variant):
            raise PolicyFileError(f"the last layer has {width} outputs; {variant} has {action_count(variant)} actions")

    def logits(self, observations: Any) -> np.ndarray:
        """The network's outputs (one row per observation, one column per action)."""
        import numpy as np

        x = np.asarray(observations, np.float32) / self.variant.seeds
        for index, (w, b) in enumerate(self.layers):
            x = x @ w + b
            if index < len(self.layers) - 1:
                x = np.maximum(x, 0.0)
        return x

    def best_action(self, position: Position) -> int:
        """The legal action with the highest output for the side to move."""
        import numpy as np

        seat = position.to_move
        scores = self.logits(np.array([observation(position, seat)]))[0]
        mask = np.array(action_mask(position, seat), bool)
        return int(np.flatnonzero(mask)[np.argmax(scores[mask])])


def save_policy(path: str | os.PathLike[str], variant: Variant, layers: Sequence[tuple[Any, Any]]) -> None:
    """Write a policy file (atomically): ``layers`` are (weights, biases) pairs, first layer first."""
    import io

    import numpy as np

    network = PolicyNetwork(variant, layers)  # checks the shapes before anything is written
    arrays: dict[str, Any] = {
        "variant": np.array([variant.pits, variant.seeds, variant.empty_capture, variant.pie_rule], np.int64)
    }
    for index, (w, b) in enumerate(network.layers):
        arrays[f"w{index}"], arrays[f"b{index}"] = w, b
    buffer = io.BytesIO()
    np.savez(buffer, **arrays)
    write_atomic(Path(path), buffer.getvalue())


def load_policy(path: str | os.PathLike[str]) -> PolicyNetwork:
    """Read a policy file; :class:`PolicyFileError` says what is wrong with a bad one. The network's
    ``digest`` is that of the bytes it was read from."""
    import io
    import zipfile

    import numpy as np

    file = Path(path)
    try:
        size = file.stat().st_size
        if size > MAX_FILE_BYTES:
            raise PolicyFileError(f"the policy file {str(file)!r} is {size} bytes; at most {MAX_FILE_BYTES} are read")
        content = file.read_bytes()
    except OSError as error:
        raise PolicyFileError(f"cannot read the policy file {str(file)!r}: {error.strerror}") from None
    if not zipfile.is_zipfile(io.BytesIO(content)):  # else NumPy takes any other file for a pickle and says so
        raise PolicyFileError(f"{str(file)!r} is not a policy file (a NumPy .npz archive)")
    try:
        with np.load(io.BytesIO(content), allow_pickle=False) as data:
            arrays = {name: data[name] for name in data.files}
    except (OSError, ValueError, zipfile.BadZipFile, EOFError) as error:
        raise PolicyFileError(f"{str(file)!r} is not a policy file (a NumPy .npz archive): {error}") from None
    if "variant" not in arrays or arrays["variant"].shape != (4,):
        raise PolicyFileError(f"{str(file)!r} names no variant (an array of pits, seeds, empty capture, pie rule)")
    pits, seeds, empty_capture, pie_rule = (int(x) for x in arrays["variant"])
    from kalah.rules import InvalidVariantError

    try:
        variant = Variant(pits, seeds, bool(empty_capture), bool(pie_rule))
    except InvalidVariantError as error:
        raise PolicyFileError(f"{str(file)!r}: {error}") from None
    layers: list[tuple[Any, Any]] = []
    while f"w{len(layers)}" in arrays and f"b{len(layers)}" in arrays:
        layers.append((arrays[f"w{len(layers)}"], arrays[f"b{len(layers)}"]))
    for name, array in arrays.items():
        if array.dtype.kind not in "fiub":
            raise PolicyFileError(f"{str(file)!r}: array {name!r} is not numeric")
    return PolicyNetwork(variant, layers, hashlib.sha256(content).hexdigest())


class PolicyPlayer(ComputerPlayer):
    """Plays the legal move its network scores highest (deterministic)."""

    #: make_player keeps the spec the player gives itself: it names the file's content (its digest).
    pins_spec = True

    def __init__(self, network: PolicyNetwork, file: str) -> None:
        super().__init__()
        self.network = network
        self.name = f"policy ({Path(file).name})"
        self.spec = f"policy:file={file}" + (f",digest={network.digest[:DIGEST_DIGITS]}" if network.digest else "")

    def check_variant(self, variant: Variant) -> None:
        """:class:`PolicyFileError` unless the network was trained on ``variant``."""
        if variant != self.network.variant:
            raise PolicyFileError(f"this policy plays {self.network.variant}, not {variant}")

    def choose_move(self, position: Position) -> Move:
        """The network's best legal move; :class:`PolicyFileError` for a variant it was not trained on."""
        self.check_variant(position.variant)
        return move_of_action(self.network.best_action(position), position.variant)


def _policy_player(file: str | None = None, digest: str | None = None) -> PolicyPlayer:
    if not file:
        raise PlayerSpecError("policy needs file=PATH of a policy network (.npz, see docs/rl.md)")
    if digest is not None:
        digest = digest.strip().lower()
        if not DIGEST_DIGITS <= len(digest) <= 64 or not set(digest) <= set(string.hexdigits.lower()):
            raise PlayerSpecError(
                f"option digest must be {DIGEST_DIGITS} to 64 hex digits of the file's SHA-256, got {digest!r}"
            )
    network = load_policy(file)
    if digest is not None and not network.digest.startswith(digest):
        raise PolicyFileError(
            f"the policy file {file!r} has changed: its digest is {network.digest[:DIGEST_DIGITS]}, the spec "
            f"names {digest} (a file trained again is a new player: name it without digest=)"
        )
    return PolicyPlayer(network, file)


register_player(
    "policy",
    _policy_player,
    "a trained policy network (NumPy .npz) playing its best move",
    "file=PATH[,digest=HEX]",
    external="reads a file on this machine",
)
