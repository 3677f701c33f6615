"""Opening books: entries agree with fresh solves, every reply is covered, the perfect player answers from
the book, damaged files are refused, the command line checks its input."""

from __future__ import annotations

import gzip
import json
import random
import zlib

import pytest

import kalah
from kalah import Position, Variant, solve
from kalah.book import (
    Book,
    BookError,
    book_filename,
    build_book,
    data_directory,
    fastest_move,
    lines,
    load,
    lookup,
    position_key,
    shipped,
)
from kalah.cli import main
from kalah.players.spec import make_player
from kalah.solve import clear_cache

SMALL = Variant(4, 3)
SIX_THREE = [Variant(6, 3, empty_capture=capture, pie_rule=pie) for pie in (False, True) for capture in (False, True)]
SIX_FOUR = [Variant(6, 4), Variant(6, 4, empty_capture=True)]
SHIPPED = SIX_THREE + SIX_FOUR


@pytest.fixture(scope="module", autouse=True)
def _a_cold_solver_afterwards():
    """These tests solve opening positions: later tests of timed solves expect a solver table that never saw them."""
    yield
    clear_cache()


@pytest.fixture(scope="module")
def small_book() -> Book:
    return build_book(SMALL, 3)


def _position(key: str, variant: Variant) -> Position:
    cells, _, mover = key.partition("/")
    return Position.from_cells([int(cell) for cell in cells.split(".")], int(mover), variant)


def _check_entry(position: Position, entry) -> None:
    fresh = solve(position, threads=1)
    assert entry.value == fresh.value, position
    assert list(entry.best_moves) == fresh.best_moves, position
    assert entry.move in fresh.best_moves
    child = position.play(entry.move)
    played = solve(child, threads=1, best_moves=False, pv=False).value
    assert (played if child.to_move == position.to_move else -played) == entry.value


# --- a tiny book, built here, checked entry by entry -------------------------------------------


def test_a_small_book_agrees_with_the_solver_entry_by_entry(small_book):
    assert small_book.moves == 3 and len(small_book) > 20
    for key, entry in small_book.entries.items():
        position = _position(key, SMALL)
        assert position_key(position) == key
        assert position.to_move in (0, 1) and len(position.legal_moves()) > 1
        _check_entry(position, entry)


def test_the_book_follows_its_own_move_and_every_reply(small_book):
    needed, missing = lines(small_book)
    assert missing == [] and len(needed) == len(small_book)
    # the start (seat 0) and every first move of player 0 (seat 1) are there, extra turns followed
    start = Position.start(SMALL)
    assert small_book.get(start) is not None
    for move in start.legal_moves():
        child = start.play(move)
        while child.to_move == 0 and not child.is_over:  # an extra turn: player 0 moves again
            child = child.play(child.legal_moves()[0])
        assert child.is_over or len(child.legal_moves()) == 1 or small_book.get(child) is not None
    # the perfect player's move, then every reply, leads to another entry
    entry = small_book.get(start)
    after = start.play(entry.move)
    for reply in after.legal_moves() if after.to_move == 1 else []:
        position = after.play(reply)
        if position.to_move == 0 and len(position.legal_moves()) > 1:
            assert small_book.get(position) is not None
    # a book missing an entry says which
    key = next(iter(small_book.entries))
    partial = Book(SMALL, 3, {k: v for k, v in small_book.entries.items() if k != key})
    assert [position_key(p) for p in lines(partial)[1]] == [key]
    # a build stopped during a move leaves entries beyond the complete ones: trimmed() drops them
    larger = build_book(SMALL, 4)
    stopped = Book(SMALL, 3, larger.entries, larger.built)
    trimmed = stopped.trimmed()
    assert len(stopped) > len(trimmed) and lines(trimmed)[1] == []
    assert set(trimmed.entries) == {position_key(position) for position in lines(stopped)[0]}


def test_the_move_is_the_perfect_players_rule(small_book):
    for key, entry in small_book.entries.items():
        position = _position(key, SMALL)
        if len(entry.best_moves) > 1:
            # the rule: fastest win / slowest loss by the solver's line; here re-run on the same position
            assert fastest_move(position, entry.value, list(entry.best_moves)) in entry.best_moves


def test_extending_a_book_reuses_its_entries(small_book):
    calls = []
    bigger = build_book(SMALL, 4, book=small_book, progress=lambda done, total, level: calls.append(level))
    assert bigger.moves == 4 and set(small_book.entries) <= set(bigger.entries)
    assert all(bigger.entries[key] == entry for key, entry in small_book.entries.items())
    assert lines(bigger)[1] == [] and max(calls) == 4
    assert bigger.built["levels"][:3] == small_book.built["levels"][:3]


def test_a_ply_limited_book_holds_every_line_within_its_plies_and_agrees_with_the_solver():
    book = build_book(SMALL, None, plies=4)
    assert book.plies == 4 and book.moves == 4
    needed, missing = lines(book)
    assert missing == [] and {position_key(position) for position in needed} == set(book.entries)

    # Walked here independently: every position fewer than 4 moves from the start where a seat decides,
    # on the lines where that seat plays its book move and the other side anything.
    def walk(position, seat, ply, found):
        if position.is_over or ply >= 4:
            return
        moves = position.legal_moves()
        if position.to_move == seat and len(moves) > 1:
            found.add(position_key(position))
            moves = [book.get(position).move]
        for move in moves:
            walk(position.play(move), seat, ply + 1, found)

    expected: set[str] = set()
    for seat in (0, 1):
        walk(Position.start(SMALL), seat, 0, expected)
    assert set(book.entries) == expected
    # the seat-0 line of Kalah(4,3) reaches its third decision within four plies, so plies and moves differ
    assert len(book) < len(build_book(SMALL, 4))
    for key, entry in book.entries.items():
        _check_entry(_position(key, SMALL), entry)
    again = Book.from_bytes(book.to_bytes())
    assert again.plies == 4 and again.entries == book.entries


def test_a_stopped_build_resumes_from_its_last_save_without_solving_again(tmp_path, monkeypatch):
    import kalah.book.building as books

    path = tmp_path / "k43.book.json.gz"
    saves = []

    def save_then_stop(book):
        book.save(path)
        saves.append(len(book))
        if len(saves) == 5:
            raise KeyboardInterrupt  # as Ctrl-C during the build: the last save is what is left

    with pytest.raises(KeyboardInterrupt):
        build_book(SMALL, 3, checkpoint=save_then_stop, checkpoint_seconds=0)
    kept = load(path, SMALL)
    assert len(kept) == saves[-1] and 0 < len(kept)
    solved = []
    choose = books.choose
    monkeypatch.setattr(
        books, "choose", lambda position, **options: solved.append(position) or choose(position, **options)
    )
    resumed = build_book(SMALL, 3, book=kept)
    full = build_book(SMALL, 3, book=None)
    resumed_solves = len(solved) - len(full)
    assert not {position_key(position) for position in solved[:resumed_solves]} & set(kept.entries)
    assert resumed_solves == len(full) - len(kept)
    assert set(resumed.entries) == set(full.entries) and resumed.moves == 3 and lines(resumed)[1] == []
    for key, entry in full.entries.items():
        assert (resumed.entries[key].value, resumed.entries[key].best_moves) == (entry.value, entry.best_moves)


def test_the_file_round_trips_and_is_reproducible(small_book, tmp_path):
    path = tmp_path / "small.book.json.gz"
    small_book.save(path)
    again = load(path, SMALL)
    assert again.entries == small_book.entries and again.moves == 3 and again.variant == SMALL
    assert path.read_bytes() == small_book.to_bytes()
    with pytest.raises(BookError, match="not of Kalah"):
        load(path, Variant(4, 4))


def test_a_pie_rule_book_holds_the_swap():
    variant = Variant(3, 3, pie_rule=True)
    book = build_book(variant, 2)
    assert lines(book)[1] == []
    after = [book.get(Position.start(variant).play(move)) for move in Position.start(variant).legal_moves()]
    assert all(
        entry is not None and kalah.SWAP in Position.start(variant).play(move).legal_moves()
        for entry, move in zip(after, Position.start(variant).legal_moves(), strict=False)
    )
    for key, entry in book.entries.items():
        _check_entry(_position(key, variant), entry)


# --- damaged and foreign files ------------------------------------------------------------------


def _document(book: Book) -> dict:
    return json.loads(gzip.decompress(book.to_bytes()))


@pytest.mark.parametrize(
    "damage, message",
    [
        (lambda data: b"not gzip at all", "not gzip data"),
        (lambda data: gzip.compress(b"{broken json"), "not JSON"),
        (lambda data: gzip.compress(b'{"format": "something else"}'), "not an opening book"),
        (lambda data: data[: len(data) // 2], "not gzip data"),
    ],
)
def test_a_damaged_file_is_refused(small_book, tmp_path, damage, message):
    path = tmp_path / "bad.book.json.gz"
    path.write_bytes(damage(small_book.to_bytes()))
    with pytest.raises(BookError, match=message):
        load(path)


@pytest.mark.parametrize("change", ["version", "entry", "key", "move", "variant"])
def test_a_file_with_wrong_contents_is_refused(small_book, tmp_path, change):
    document = _document(small_book)
    key = next(iter(document["entries"]))
    if change == "version":
        document["version"] = 99
    elif change == "entry":
        document["entries"][key] = "+6"
    elif change == "key":
        document["entries"]["1.2.3/0"] = document["entries"].pop(key)
    elif change == "move":
        document["entries"][key] = [7, 0, [7]]
    else:
        document["variant"] = {"pits": 4, "seeds": 3, "colour": "red"}
    path = tmp_path / "bad.book.json.gz"
    path.write_bytes(gzip.compress(json.dumps(document).encode()))
    with pytest.raises(BookError, match="version 99" if change == "version" else "damaged"):
        load(path)


def test_a_file_that_unpacks_past_the_limit_is_refused_without_unpacking_it_all(tmp_path, monkeypatch):
    import kalah.book.file as books

    monkeypatch.setattr(books, "MAX_FILE_BYTES", 1 << 20)
    path = tmp_path / "bomb.book.json.gz"
    path.write_bytes(gzip.compress(b" " * (64 << 20)))  # 64 KiB on disk, 64 MiB unpacked
    read = []
    real_read = gzip.GzipFile.read
    monkeypatch.setattr(gzip.GzipFile, "read", lambda self, size=-1: read.append(size) or real_read(self, size))
    with pytest.raises(BookError, match="too large"):
        load(path)
    assert read and all(0 <= size <= (1 << 20) + 1 for size in read)  # never "all of it"


def test_a_missing_file_is_a_book_error(tmp_path):
    with pytest.raises(BookError, match="cannot read"):
        load(tmp_path / "nothing.book.json.gz")


# --- the shipped books -----------------------------------------------------------------------------


@pytest.mark.parametrize("variant", SHIPPED, ids=lambda variant: variant.name)
def test_the_shipped_book_is_complete(variant):
    book = shipped(variant)
    assert book is not None, book_filename(variant)
    assert book.moves >= 2
    needed, missing = lines(book)
    assert missing == [] and len(needed) <= len(book)  # a build stopped during a move keeps what it solved


@pytest.mark.parametrize("variant", SIX_THREE, ids=lambda variant: variant.name)
def test_a_sample_of_the_kalah_6_3_books_agrees_with_fresh_solves(variant):
    book = shipped(variant)
    rng = random.Random(zlib.crc32(variant.name.encode()))
    # the start, a few of the early (hardest) entries and a random sample of all (mostly the later moves)
    positions = sorted((_position(key, variant) for key in book.entries), key=lambda p: -p.seeds_in_pits)
    sample = [Position.start(variant), *rng.sample(positions[1:40], 3), *rng.sample(positions[40:], 10)]
    if variant.pie_rule:  # the start's value takes every move's, each with the swap: too slow for a test
        start = Position.start(variant)
        sample = [position for position in sample[1:] if not position.is_first_move]
        sample.append(start.play(rng.choice(start.legal_moves())))  # the swap is one of its moves
        assert kalah.SWAP in sample[-1].legal_moves()
    for position in sample:
        _check_entry(position, book.get(position))


@pytest.mark.slow
@pytest.mark.parametrize("variant", SIX_FOUR, ids=lambda variant: variant.name)
def test_cheap_entries_of_the_kalah_6_4_books_agree_with_fresh_solves(variant):
    book = shipped(variant)
    # the cheap ones: the deepest entries (fewest seeds in the pits), sampled with a fixed seed
    positions = sorted((_position(key, variant) for key in book.entries), key=lambda p: p.seeds_in_pits)
    rng = random.Random(zlib.crc32(variant.name.encode()))
    # and two of the middle (at most 40 seeds in the pits: solved in seconds, no endgame table to build)
    middle = [position for position in positions if 36 <= position.seeds_in_pits <= 40]
    for position in rng.sample(positions[:60], 3) + rng.sample(middle, 2):
        _check_entry(position, book.get(position))


@pytest.mark.parametrize(
    "variant, value, best",
    [
        (Variant(6, 4), 8, (2,)),  # the solver's figures for the starts (README, docs/solve.md)
        (Variant(6, 4, empty_capture=True), 10, (2,)),
        (Variant(6, 3), 2, (4,)),
    ],
)
def test_the_book_starts_with_the_known_values(variant, value, best):
    entry = lookup(Position.start(variant))
    assert (entry.value, entry.best_moves, entry.move) == (value, best, best[0])


def test_the_kalah_6_5_book_answers_every_decision_within_four_plies():
    # Its 26 entries took 80 minutes and the 3.25 GiB K=28 database to solve, so no test solves them again
    # (benchmarks/bench_book_verify.py re-proves a sample); they are checked to be exactly the decisions of
    # both seats within four plies of the start, each move among its best moves.
    variant = Variant(6, 5)
    book = shipped(variant)
    assert book is not None and book.plies == 4
    needed, missing = lines(book)
    assert missing == [] and {position_key(position) for position in needed} == set(book.entries)
    assert len(book.entries) == 26
    for position in needed:
        entry = book.get(position)
        assert entry.move in entry.best_moves and entry.move in position.legal_moves()
    start = Position.start(variant)
    assert book.get(start).value == 10  # the solver's figure for the start (README, docs/solve.md)
    player = make_player("perfect")
    assert player.choose_move(start) == book.get(start).move and player.last_info.get("book") is True
    # kalah.analyse answers every entry from the book, exactly, without solving
    for position in needed[:5]:
        analysis = kalah.analyse(position, time=0.5)
        entry = book.get(position)
        assert (analysis.source, analysis.exact, analysis.value) == ("book", True, entry.value)
        assert analysis.best_moves == list(entry.best_moves)


def test_a_search_player_with_book_on_plays_the_books_move_at_once_and_banks_the_time():
    start = Position.start(Variant(6, 4))
    entry = lookup(start)
    player = make_player("pvs:time=0.3,book=on")
    assert player.spec == "pvs:time=0.3,book=on"
    import time

    began = time.perf_counter()
    assert player.choose_move(start) == entry.move
    assert time.perf_counter() - began < 0.1  # a search would take its 0.3 s budget's most
    assert player.last_info["book"] is True and player.last_info["value"] == entry.value
    assert player._bank == pytest.approx(0.3)  # the next search may use the saved time
    plain = make_player("pvs:time=0.05")
    plain.choose_move(start)
    assert "book" not in plain.last_info and plain.last_info["depth"] >= 1
    # beyond the book (Kalah(6,6) has none) it searches as before
    player.choose_move(Position.start(Variant(6, 6)))
    assert "book" not in player.last_info and player.last_info["depth"] >= 1


@pytest.mark.parametrize("spec", ["mcts:book=on", "alphabeta:depth=3,book=on", "pvs:time=1,book=maybe"])
def test_book_is_an_option_of_pvs_and_mtdf_only(spec):
    with pytest.raises(kalah.KalahError):
        make_player(spec)


def test_no_book_for_other_variants():
    assert shipped(Variant(5, 5)) is None
    assert lookup(Position.start(Variant(5, 5))) is None
    assert (data_directory() / book_filename(Variant(6, 4))).is_file()


# --- the perfect player answers from the book -----------------------------------------------------


@pytest.mark.parametrize("variant", SHIPPED, ids=lambda variant: variant.name)
def test_the_perfect_player_answers_from_the_book_along_its_lines(variant):
    book = shipped(variant)
    player = make_player("perfect")
    rng = random.Random(7)
    for seat in (0, 1):
        position = Position.start(variant)
        decisions = asked = 0
        while decisions < book.moves and not position.is_over:
            if position.to_move == seat:
                move = player.choose_move(position)
                if len(position.legal_moves()) > 1:
                    decisions += 1
                    asked += 1
                    assert player.last_info.get("book") is True
                    assert move == book.get(position).move
            else:
                move = rng.choice(position.legal_moves())
            position = position.play(move)
        assert asked == decisions > 0
    assert player.book_moves > 0


@pytest.mark.parametrize("variant", SIX_THREE[:2], ids=lambda variant: variant.name)
def test_the_perfect_player_without_the_book_chooses_the_books_move_among_equals(variant):
    # Among several best moves the rule compares the lengths of the solver's principal variations, which may
    # depend on what the solver's table held (docstring of kalah.book); from a cold table they agree here.
    book = shipped(variant)
    keys = sorted(key for key, entry in book.entries.items() if len(entry.best_moves) > 1)
    for key in random.Random(1).sample(keys, 12):
        clear_cache()
        player = make_player("perfect:book=off,time=120,threads=1")
        assert player.choose_move(_position(key, variant)) == book.entries[key].move, key


def test_the_book_can_be_switched_off():
    player = make_player("perfect:book=off,time=20")
    assert player.spec == "perfect:book=off,time=20"
    player.choose_move(Position.start(Variant(6, 3)))
    assert player.book_moves == 0 and "book" not in player.last_info
    with pytest.raises(kalah.KalahError, match="on or off"):
        make_player("perfect:book=maybe")


# --- the command line ----------------------------------------------------------------------------------


def test_the_build_command_writes_a_book(tmp_path, capsys):
    path = tmp_path / "k43.book.json.gz"
    assert main(["book", "build", "--pits", "4", "--seeds", "3", "--moves", "2", "--out", str(path), "-q"]) == 0
    assert "positions:" in capsys.readouterr().out
    book = load(path, SMALL)
    assert book.moves == 2 and lines(book)[1] == []
    assert main(["book", "build", "--pits", "4", "--seeds", "3", "--moves", "3", "--out", str(path), "-q"]) == 0
    assert load(path, SMALL).moves == 3
    assert main(["book", "show", str(path), "--check"]) == 0
    out = capsys.readouterr().out
    assert "Kalah(4,3): 3 moves per seat" in out and "0 missing" in out
    start = load(path, SMALL).get(Position.start(SMALL))
    assert f"plays {'ABCD'[start.move]}\n" in out  # the pit's letter, not its index
    assert main(["book", "build", "--pits", "4", "--seeds", "3", "--plies", "4", "--out", str(path), "-q"]) == 0
    assert "within 4 plies of the start" in capsys.readouterr().out
    assert load(path, SMALL).plies == 4 and lines(load(path, SMALL))[1] == []


@pytest.mark.parametrize(
    "arguments, message",
    [
        (["book", "build", "--moves", "-1"], "--moves must be"),
        (["book", "build"], "--moves N, --plies P"),
        (["book", "build", "--plies", "31"], "--plies must be"),
        (["book", "build", "--moves", "2", "--seeds", "6"], "at most 60"),
        (["book", "build", "--moves", "2", "--pits", "0"], "pits must be"),
        (["book", "build", "--moves", "two"], "--moves"),
        (["book", "build", "--moves", "2", "--threads", "0"], "--threads must be"),
        (["book", "show", "--seeds", "9"], "no opening book"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(arguments, message, capsys):
    assert main(arguments) == 2
    err = capsys.readouterr().err
    assert err.startswith("kalah: error: ") and message in err and err.count("\n") == 1


def test_an_unwritable_book_file_is_one_line_and_exit_2(tmp_path, capsys):
    (tmp_path / "file").write_text("")
    assert (
        main(
            [
                "book",
                "build",
                "--pits",
                "3",
                "--seeds",
                "2",
                "--moves",
                "1",
                "-q",
                "--out",
                str(tmp_path / "file" / "book.json.gz"),
            ]
        )
        == 2
    )
    err = capsys.readouterr().err
    assert err.startswith("kalah: error: --out ") and "file is not a folder" in err and err.count("\n") == 1


def test_a_damaged_book_file_is_one_line_and_exit_2(tmp_path, capsys):
    path = tmp_path / "bad.book.json.gz"
    path.write_bytes(b"garbage")
    assert main(["book", "show", str(path)]) == 2
    assert main(["book", "build", "--pits", "4", "--seeds", "3", "--moves", "1", "--out", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("kalah: error: ") == 2 and "not an opening book" in err
