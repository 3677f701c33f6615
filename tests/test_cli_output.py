"""What the terminal commands print: figures with the digits that mean something, integer depths on
plots, and the bounds of a solve stopped with Ctrl-C (issue 32, item 5)."""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
import time

import pytest

from kalah.cli.analyse import duration_text, rate_text
from kalah.cli.compare import plot_figure, seconds_table_unit


def kalah(*args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "kalah.cli", *args], capture_output=True, text=True, timeout=timeout)


def test_a_search_too_short_to_time_shows_no_rate():
    run = kalah("analyse", "-d", "1")
    assert run.returncode == 0, run.stderr
    assert "nodes/s" not in run.stdout and "0.000 s" not in run.stdout
    assert re.search(r"\d+ µs|\d ms", " ".join(run.stdout.split())), run.stdout


def test_durations_and_rates_keep_their_significant_digits():
    assert (
        duration_text(0.000018) == "18 µs" and duration_text(0.0502) == "50.2 ms" and duration_text(3.14159) == "3.14 s"
    )
    assert rate_text(7, 0.000018) == ""  # too short to time: no "0.0 M nodes/s"
    assert rate_text(216_972, 0.05) == " (4.3 M nodes/s)" and rate_text(5_000, 0.02) == " (250 k nodes/s)"


def test_the_time_table_of_compare_is_never_a_column_of_zeros():
    run = kalah("compare", "--depths", "1-2", "--positions", "0", "--repeats", "1")
    assert run.returncode == 0, run.stderr
    assert "0.0000" not in run.stdout
    assert re.search(r"^ *(Microseconds|Milliseconds) *$", run.stdout, re.MULTILINE), run.stdout
    assert seconds_table_unit([0.0000012, 0.00027]) == ("µs", 1e6, 2)  # 1.20 µs: three significant digits
    assert seconds_table_unit([0.004, 0.5]) == ("ms", 1e3, 2) and seconds_table_unit([0.2, 3.0])[0] == "s"


def test_the_plot_of_integer_depths_has_integer_ticks():
    import matplotlib.pyplot as plt

    totals = {
        (name, depth): {"nodes": 10**depth, "seconds": 1e-6 * 10**depth}
        for name in ("pvs", "mtdf")
        for depth in (1, 2, 3)
    }
    figure = plot_figure(["pvs", "mtdf"], [1, 2, 3], totals, "test")
    try:
        for axis in figure.axes:
            low, high = axis.get_xlim()
            shown = [tick for tick in axis.get_xticks() if low <= tick <= high]
            assert shown and all(float(tick).is_integer() for tick in shown), shown
    finally:
        plt.close(figure)


def test_ctrl_c_during_a_timed_solve_prints_the_bounds_proven_so_far():
    process = subprocess.Popen(
        [sys.executable, "-m", "kalah.cli", "solve", "--time", "60"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    time.sleep(8)  # the first bounds of Kalah(6,4) come within a second or two of the start
    stopped = time.monotonic()
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=60)
    assert time.monotonic() - stopped < 10, "Ctrl-C must stop the solve promptly"
    assert process.returncode == 130, err
    assert re.fullmatch(
        r"interrupted: value (between [+-]\d+ and [+-]\d+|[+-]\d+) for player 0 \(proven before the"
        r" interruption\)\n|interrupted before any bound was proven\n",
        out,
    ), (out, err)


@pytest.mark.parametrize(
    "options",
    [["-a", "pvs", "-d", "40"], ["-d", "40"], ["-a", "mcts", "-t", "60"], ["-a", "minimax", "-d", "30"], ["-t", "60"]],
    ids=["pvs", "depth", "mcts", "minimax", "exact"],
)
def test_ctrl_c_stops_an_analysis_promptly(options):
    # The compiled search never looks at signals: run in the main thread, it went on for minutes after Ctrl-C.
    process = subprocess.Popen(
        [sys.executable, "-m", "kalah.cli", "analyse", "-p", "[[6,6,6,6,6,6,0],[6,6,6,6,6,6,0]]", *options],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    time.sleep(1.5)
    stopped = time.monotonic()
    process.send_signal(signal.SIGINT)
    try:
        out, err = process.communicate(timeout=15)
    finally:
        process.kill()
    assert time.monotonic() - stopped < 5, "Ctrl-C must stop the analysis promptly"
    assert process.returncode == 130, err
    assert err == "kalah: interrupted: the analysis stopped before it finished; nothing to show\n", err
    assert out == ""


def test_analyse_takes_the_variant_flags_as_solve_does(capsys):
    # analyse had none: a bare board was always Kalah(6,4), with no way to ask for other rules.
    from kalah.cli import main

    board = "[[0,0,1,2,0,3,0],[1,0,0,2,1,0,0]]"
    assert main(["analyse", "-p", board, "--empty-capture", "--pie-rule", "--seeds", "3", "-d", "4"]) == 0
    assert capsys.readouterr().out.startswith("Kalah(6,3) empty-capture pie, player 0 to move; pvs")
    assert main(["analyse", "-p", board, "--to-move", "1", "--seeds", "3", "-t", "1"]) == 0
    assert capsys.readouterr().out.startswith("Kalah(6,3), player 1 to move\n")
    assert main(["analyse", "--pits", "4", "--seeds", "3", "-d", "4"]) == 0
    assert capsys.readouterr().out.startswith("Kalah(4,3), player 0 to move; pvs")
    assert main(["analyse", "-p", board, "--pits", "5"]) == 2
    assert capsys.readouterr().err == "kalah: error: the position: --pits 5 contradicts the board's 6 pits a side\n"


def test_analyse_refuses_variant_flags_beside_a_record(tmp_path, capsys):
    from kalah.cli import main

    record = tmp_path / "game.json"
    assert main(["play", "-0", "random", "-1", "random", "--record", str(record)]) == 0
    capsys.readouterr()
    assert main(["analyse", "--record", str(record), "--pie-rule"]) == 2
    assert capsys.readouterr().err == "kalah: error: --pie-rule cannot go with --record (it has its variant)\n"


def _interrupted(args, tmp_path, seconds=2.0):
    """Run ``kalah ARGS`` with its data in ``tmp_path``, send Ctrl-C after ``seconds``; (code, stderr)."""
    import os

    env = dict(os.environ, HOME=str(tmp_path), XDG_DATA_HOME=str(tmp_path / "data"))
    process = subprocess.Popen(
        [sys.executable, "-m", "kalah.cli", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env
    )
    time.sleep(seconds)
    process.send_signal(signal.SIGINT)
    try:
        _, err = process.communicate(timeout=30)
    finally:
        process.kill()
    return process.returncode, err


def test_ctrl_c_in_an_endgame_build_says_the_partial_file_is_kept(tmp_path):
    # It exited 130 without a word: nothing told the user that the next run resumes.
    code, err = _interrupted(["endgame", "build", "-k", "26", "-q", "--path", str(tmp_path / "eg")], tmp_path)
    assert code == 130, err
    partial = tmp_path / "eg" / "kalah-m6-std-k26.egdb.partial"
    assert (
        err == f"kalah: interrupted: the layers finished are kept in {partial}; run the same command again to resume\n"
    )


def test_ctrl_c_in_a_book_build_says_the_next_run_resumes(tmp_path):
    out = tmp_path / "book.json"
    code, err = _interrupted(["book", "build", "--moves", "12", "-q", "--pits", "5", "--out", str(out)], tmp_path)
    assert code == 130, err
    assert re.fullmatch(
        rf"kalah: interrupted: (the book in {re.escape(str(out))} holds the move numbers finished|no move number"
        r" finished); run the same command again to resume\n",
        err,
    ), err


def test_ctrl_c_in_a_review_says_nothing_was_stored(tmp_path):
    from kalah.cli import main

    record = tmp_path / "game.json"
    assert main(["play", "-0", "random:seed=3", "-1", "random:seed=4", "--record", str(record)]) == 0
    code, err = _interrupted(["review", str(record), "-t", "5"], tmp_path)
    assert code == 130, err
    assert err == "kalah: interrupted: the review was not finished (nothing stored); run it again\n"


def test_ctrl_c_in_a_puzzle_build_says_the_file_is_as_it_was(tmp_path):
    # It exited 130 without a word (typer's own handling): nothing told the user that no puzzle was written.
    out = tmp_path / "puzzles.json.gz"
    code, err = _interrupted(["puzzles", "build", "--games", "2000", "-q", "--out", str(out)], tmp_path, 4.0)
    assert code == 130, err
    assert re.fullmatch(
        rf"kalah: interrupted: [\d,]+ of the 2,000 games examined; {re.escape(str(out))} is as it was"
        r" \(nothing written\)\n",
        err,
    ), err
    assert not out.exists()


def test_ctrl_c_in_a_comparison_says_which_depths_the_tables_show(tmp_path):
    # The tables of the depths finished were printed, but nothing on stderr said the run was cut short.
    args = ["compare", "--algorithms", "pvs,alphabeta", "--depths", "1-30", "--positions", "200", "--repeats", "1"]
    code, err = _interrupted(args, tmp_path, 4.0)
    assert code == 130, err
    assert re.fullmatch(
        r"kalah: interrupted: (the tables show the depths finished \(\d+ of 30\)|no depth was finished; nothing to"
        r" show|the positions were still being chosen; nothing compared)\n",
        err,
    ), err


def test_ctrl_c_stops_a_comparison_inside_a_search_of_hours(tmp_path):
    # Minimax to 16 plies from the start takes hours; Ctrl-C waited for it (the search ran in the main
    # thread, where the interrupt is seen only between searches). _interrupted gives it 30 s to end.
    args = ["compare", "--algorithms", "minimax", "--depths", "16", "--positions", "0", "--repeats", "1"]
    code, err = _interrupted(args, tmp_path, 3.0)
    assert (code, err) == (130, "kalah: interrupted: no depth was finished; nothing to show\n")


def test_a_cancelled_comparison_counts_no_search_the_stop_cut_short():
    import threading

    from kalah import Position
    from kalah.core.builds import Engine
    from kalah.search.compare import run_comparison

    engine, cancelled = Engine(), threading.Event()
    completed: list[int] = []

    def stop_after_the_first_search():
        cancelled.set()
        engine.stop()

    totals, _ = run_comparison(
        ["pvs", "alphabeta"],
        [2, 3],
        [Position.start()],
        "strong",
        on_search=stop_after_the_first_search,
        completed=completed,
        engine=engine,
        cancelled=cancelled,
    )
    assert completed == [] and totals[("pvs", 2)]["nodes"] > 0
    assert totals[("alphabeta", 2)]["nodes"] == 0  # never started: the stop came first


def test_compare_in_a_variant_without_varied_positions_says_so(capsys):
    # Kalah(1,1) is over within two moves: choosing the positions looped for ever.
    from kalah.cli import main

    assert main(["compare", "--pits", "1", "--seeds", "1", "--depths", "1", "--positions", "1"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("kalah: error: Kalah(1,1) has no unfinished position") and err.count("\n") == 1, err


def test_analyse_says_when_a_board_cannot_arise_in_its_variant(capsys):
    # A board of 72 seeds was analysed as "Kalah(6,4)" without a word: seeds are never made nor lost, so it
    # was typed for other rules (issue 48).
    from kalah.cli import main

    board = "[[6,6,6,6,6,6,0],[6,6,6,6,6,6,0]]"
    assert main(["analyse", "-p", board, "-d", "2"]) == 0
    out = capsys.readouterr().out
    assert out.endswith(
        "Note: this board holds 72 seeds; every position of Kalah(6,4) holds 48, so it cannot arise in a game"
        " of that variant (it can with --seeds 6); analysed as given.\n"
    )
    assert main(["analyse", "-p", board, "-d", "2", "--json"]) == 0
    captured = capsys.readouterr()
    json.loads(captured.out)  # the JSON stays whole; the note goes to stderr
    assert "cannot arise" in captured.err
    assert main(["analyse", "-p", board, "-d", "2", "--seeds", "6"]) == 0
    assert "cannot arise" not in capsys.readouterr().out
    assert main(["analyse", "-p", "[[1,0,0,0,0,0,0],[0,0,0,0,0,0,0]]", "-d", "2"]) == 0
    assert "this board holds 1 seed;" in capsys.readouterr().out
