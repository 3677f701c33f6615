"""Puzzles: every shipped answer proven (a random sample each run), found ones agree with brute force, the commands."""

from __future__ import annotations

import dataclasses
import json
import random
import subprocess
import sys
import time
from collections import Counter

import pytest

from kalah import Position, Variant
from kalah.puzzles import (
    THEMES,
    PuzzleError,
    data_path,
    examine,
    find_puzzles,
    load,
    prove,
    save,
    self_play_records,
    shipped,
)
from kalah.records import GameLibrary
from test_solve_truth import brute, brute_move_value

#: A new sample every run (the seed is in the failure message, so that a failure replays).
SAMPLE_SEED = int(time.time())


def cli(*args: str, input: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "kalah.cli", *args], input=input, capture_output=True, text=True, timeout=300
    )


def test_the_package_ships_a_thousand_puzzles_of_three_variants():
    puzzles = shipped()
    assert len(puzzles) >= 1000 and data_path().read_bytes()[:2] == b"\x1f\x8b"  # gzip
    by_variant = Counter(puzzle.position.variant.name for puzzle in puzzles)
    assert {"Kalah(6,3)", "Kalah(6,4)", "Kalah(6,5)"} <= set(by_variant) and min(by_variant.values()) >= 100
    assert len({puzzle.id for puzzle in puzzles}) == len(puzzles)
    themes = Counter(tag for puzzle in puzzles for tag in puzzle.theme)
    assert all(themes[theme] for theme in THEMES)  # every theme, the pie rule's swap decisions too
    for puzzle in puzzles:
        assert puzzle.theme and set(puzzle.theme) <= set(THEMES) and 1 <= puzzle.difficulty <= 5


def test_a_random_sample_of_the_shipped_puzzles_is_proven_again():
    sample = random.Random(SAMPLE_SEED).sample(list(shipped()), 25)
    for puzzle in sample:
        try:
            prove(puzzle)
        except PuzzleError as error:
            pytest.fail(f"{error} (sample seed {SAMPLE_SEED})")


def test_a_wrong_puzzle_fails_its_proof():
    puzzle = shipped()[0]
    other = next(move for move in puzzle.position.legal_moves() if move != puzzle.solution)
    for wrong in (
        dataclasses.replace(puzzle, solution=other),
        dataclasses.replace(puzzle, value=puzzle.value + 2),
        dataclasses.replace(puzzle, margin=puzzle.margin + 2),
    ):
        with pytest.raises(PuzzleError, match=puzzle.id):
            prove(wrong)


@pytest.mark.parametrize("variant", [Variant(3, 3), Variant(2, 4), Variant(3, 2, empty_capture=True)])
def test_found_puzzles_agree_with_brute_force(variant):
    found = find_puzzles(self_play_records(variant, 6, seed=2), margin=2)
    assert found
    for puzzle in found:
        position = puzzle.position
        values = {move: brute_move_value(position, move) for move in position.legal_moves()}
        assert brute(position) == puzzle.value == values[puzzle.solution]
        assert (
            max(v for m, v in values.items() if m != puzzle.solution)
            == puzzle.value - puzzle.margin
            >= puzzle.value - puzzle.margin
        )
        assert puzzle.margin >= 2
        after, effect = position.play_explained(puzzle.solution)
        assert ("capture" in puzzle.theme) == bool(effect.captured)
        assert ("sweep" in puzzle.theme) == after.is_over


def test_a_position_without_a_clear_best_move_is_no_puzzle():
    # The start of Kalah(4,2) has one best move, but with a margin of 50 no move is that much better.
    assert examine(Position.start(Variant(4, 2)), margin=50) is None
    with pytest.raises(PuzzleError, match="margin"):
        find_puzzles([], margin=0)


def test_files_round_trip_and_bad_files_are_named(tmp_path):
    path = tmp_path / "p.json.gz"
    save(list(shipped()[:3]), path)
    assert load(path) == list(shipped()[:3])
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "other"}')
    with pytest.raises(PuzzleError, match="not a puzzle file"):
        load(bad)
    with pytest.raises(PuzzleError, match="cannot read"):
        load(tmp_path / "missing.gz")
    bad.write_text(json.dumps({"format": "kalah-puzzles", "puzzles": [{"id": "x"}]}))
    with pytest.raises(PuzzleError, match="cannot be read"):
        load(bad)


def test_list_json_has_what_a_trainer_needs():
    run = cli("puzzles", "list", "--json", "--seeds", "5", "--limit", "3")
    assert run.returncode == 0, run.stderr
    items = json.loads(run.stdout)
    assert len(items) == 3
    for item in items:
        assert {"variant", "position", "solution", "theme", "difficulty", "id", "legal_moves"} <= set(item)
        assert (
            item["variant"]["seeds"] == 5
            and item["solution"] in Position.from_dict({**item["position"], "variant": item["variant"]}).legal_moves()
        )


def test_build_from_self_play_and_from_the_library(tmp_path):
    out = tmp_path / "mine.json.gz"
    run = cli(
        "puzzles", "build", "--pits", "4", "--seeds", "2", "--games", "3", "--margin", "2", "--out", str(out), "-q"
    )
    assert run.returncode == 0, run.stderr
    first = load(out)
    assert first and f"in {out}" in run.stdout
    db = tmp_path / "games.db"
    library = GameLibrary(db)
    for record in self_play_records(Variant(4, 2), 3, seed=9):
        library.import_record(record)
    again = cli(
        "puzzles",
        "build",
        "--from",
        "library",
        "--db",
        str(db),
        "--pits",
        "4",
        "--seeds",
        "2",
        "--margin",
        "2",
        "--out",
        str(out),
        "-q",
    )
    assert again.returncode == 0, again.stderr
    both = load(out)
    assert both[: len(first)] == first and len({p.id for p in both}) == len(both)
    assert any(p.source == "library" for p in both)


@pytest.mark.parametrize("losing", [False, True], ids=["winning", "losing"])
def test_the_terminal_puzzle(losing):
    # "C keeps -4" for a losing position read as keeping a lead: the best move of a lost position (issue 48)
    puzzle = next(p for p in shipped() if (p.value < 0) == losing)
    me = puzzle.position.to_move
    letter = chr((65 if me == 0 else 97) + puzzle.solution) if puzzle.solution != "swap" else "swap"
    solved = cli("puzzle", "--id", puzzle.id, input=f"hint\n{letter}\n")
    assert solved.returncode == 0 and "Theme:" in solved.stdout and "Solved" in solved.stdout
    assert (
        f"{letter} is best: {puzzle.value:+d} for you (proven), every other move {puzzle.margin} or more"
        in solved.stdout
    )
    other = next(move for move in puzzle.position.legal_moves() if move != puzzle.solution)
    wrong = chr((65 if me == 0 else 97) + other)
    gave_up = cli("puzzle", "--id", puzzle.id, input=f"{wrong}\nq\n")
    assert gave_up.returncode == 1 and "is not it" in gave_up.stdout and "The solution:" in gave_up.stdout


@pytest.mark.parametrize(
    "args, message",
    [
        (["puzzles", "build", "--from", "web", "--out", "{tmp}/p.gz"], "--from must be one of"),
        (["puzzles", "build", "--out", "{tmp}"], "not a regular file"),
        (["puzzles", "build", "--out", "{tmp}/no/p.gz"], "the folder {tmp}/no does not exist"),
        # checked before the games are played, not after (a folder that refuses files though root may write)
        (
            ["puzzles", "build", "--games", "1", "--seeds", "2", "-q", "--out", "/proc/x.gz"],
            "cannot write in the folder /proc",
        ),
        (["puzzles", "build", "--db", "{tmp}/g.db", "--out", "{tmp}/p.gz"], "--db needs"),
        # before games that could never give a puzzle: the solver that proves them holds 8 pits a side
        (["puzzles", "build", "--pits", "12", "--seeds", "15", "--out", "{tmp}/p.gz"], "at most 8 pits a side"),
        (["puzzles", "build", "--margin", "0", "--out", "{tmp}/p.gz"], "--margin"),
        (["puzzles", "list", "--theme", "fork"], "unknown theme"),
        (["puzzles", "list", "--file", "{tmp}/none.gz"], "cannot read"),
        (["puzzle", "--id", "nothere"], "no puzzle nothere"),
    ],
)
def test_bad_input_is_one_line(tmp_path, args, message):
    run = cli(*[arg.format(tmp=tmp_path) for arg in args])
    assert run.returncode == 2 and message.format(tmp=tmp_path) in run.stderr, run.stderr
    assert len(run.stderr.strip().splitlines()) == 1 and "Traceback" not in run.stderr


def test_a_file_that_unpacks_too_large_is_refused(tmp_path, monkeypatch):
    import gzip as gz

    import kalah.puzzles.file as puzzles

    monkeypatch.setattr(puzzles, "MAX_FILE_BYTES", 1000)
    bomb = tmp_path / "bomb.gz"
    bomb.write_bytes(gz.compress(b" " * 100_000))
    with pytest.raises(PuzzleError, match="too large"):
        load(bomb)
