"""Shared test helpers: random positions of many variants (imported by the tests as ``helpers``)."""

from __future__ import annotations

import contextlib
import random
import zlib
from collections.abc import Iterator

from hypothesis import strategies as st

from kalah import Position, Variant
from kalah.core import CoreGame

AGREEMENT_VARIANTS = [
    Variant(6, 4),
    Variant(6, 6),
    Variant(7, 7, pie_rule=True),
    Variant(4, 3, empty_capture=True),
]


def random_game_positions(variant: Variant, rng: random.Random, plies: int) -> Position:
    """The position after up to ``plies`` random moves from the start."""
    position = Position.start(variant)
    for _ in range(plies):
        if position.is_over:
            break
        position = position.play(rng.choice(position.legal_moves()))
    return position


def agree_on_random_games(variant: Variant, moves: int, core_class: type | None = None) -> None:
    """Play random games of ``variant`` (seeded by its name) on the reference and on the compiled core until
    ``moves`` moves are played, checking every step; ``core_class``: the build the core must pick."""
    rng = random.Random(zlib.crc32(variant.name.encode()))
    played = 0
    while played < moves:
        reference = Position.start(variant)
        core = CoreGame(reference)
        if core_class is not None:
            assert isinstance(core, core_class)
        while True:
            legal = reference.legal_moves()
            assert core.legal_moves() == legal, reference
            assert core.is_over == reference.is_over
            if not legal:
                break
            move = rng.choice(legal)
            reference = reference.play(move)
            core.play(move)
            played += 1
            assert core.cells == reference.cells, (move, reference)
            assert core.to_move == reference.to_move
            assert core.position() == reference


def scattered_position(rng: random.Random, variant: Variant, seeds: int, stores: int = 6) -> Position:
    """A position that is not over, with ``seeds`` seeds dropped at random into the pits and up to ``stores`` in each store."""
    if seeds < 2:  # one seed leaves a side empty: every such position is over
        raise ValueError(f"a position that is not over needs at least 2 seeds, got {seeds}")
    m = variant.pits
    while True:
        pits = [0] * (2 * m)
        for _ in range(seeds):
            pits[rng.randrange(2 * m)] += 1
        cells = pits[:m] + [rng.randint(0, stores)] + pits[m:] + [rng.randint(0, stores)]
        position = Position.from_cells(cells, rng.randint(0, 1), variant)
        if not position.is_over:
            return position


variants = st.builds(
    Variant,
    pits=st.integers(1, 8),
    seeds=st.integers(1, 8),
    empty_capture=st.booleans(),
    pie_rule=st.booleans(),
)


@st.composite
def reachable_positions(draw, variant_strategy=variants):
    """A position reached by random play from the start of a random variant."""
    variant = draw(variant_strategy)
    seed = draw(st.integers(0, 2**32 - 1))
    plies = draw(st.integers(0, 60))
    return random_game_positions(variant, random.Random(seed), plies)


@st.composite
def arbitrary_positions(draw):
    """Any valid board, reachable or not (stores and pits drawn freely)."""
    pits = draw(st.integers(1, 8))
    rows = [draw(st.lists(st.integers(0, 12), min_size=pits + 1, max_size=pits + 1)) for _ in range(2)]
    return Position(rows, draw(st.integers(0, 1)), Variant(pits=pits, empty_capture=draw(st.booleans())))


def free_port() -> int:
    """A TCP port on loopback that nothing listens on now."""
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start_kalah_serve(db, *options: str, env: dict[str, str] | None = None):
    """``kalah serve`` in a process group of its own, on a free port, once it answers: (process, url).
    ``db`` None: no --db (the user's library, in the data directory of ``env``)."""
    import subprocess
    import sys
    import time

    import httpx

    port = free_port()
    library = ["--db", str(db)] if db is not None else []
    process = subprocess.Popen(
        [sys.executable, "-m", "kalah.cli", "serve", "--port", str(port), *library, *options],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,
        env=env,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        try:
            if httpx.get(f"{url}/api/info", timeout=1).status_code == 200:
                return process, url
        except httpx.HTTPError:
            pass
        assert process.poll() is None, process.stderr.read().decode() if process.stderr else "kalah serve stopped"
        assert time.monotonic() < deadline, "kalah serve did not answer"
        time.sleep(0.2)


def kill_group(process) -> None:
    """SIGKILL a process started with start_new_session=True and everything in its group."""
    import os
    import signal

    try:
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    process.wait(timeout=10)


@contextlib.contextmanager
def app_in_thread(app) -> Iterator[str]:
    """A web application served by uvicorn in a thread on a free port of 127.0.0.1: its URL, until the end."""
    import threading
    import time

    import uvicorn

    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.time() + 20
    while not server.started and time.time() < deadline:
        time.sleep(0.05)
    assert server.started, "the test server did not start"
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
