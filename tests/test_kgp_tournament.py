"""Tournament mode of the class server: a fixed field, a qualification against random, stages, standings."""

from __future__ import annotations

import csv
import json
import subprocess
from collections import Counter
from types import SimpleNamespace

import httpx
import pytest

from classroom_helpers import ServerThread
from kalah.classroom import AgentBook
from kalah.classroom.agents import outcome_of
from kalah.classroom.tournament import Tournament, TournamentError, parse_stage
from kalah.rules import InvalidVariantError, Outcome, Variant
from kgp_interop import kalah_command


def test_stages_are_parsed_and_boards_beyond_12_pits_refused():
    assert parse_stage("6x6") == Variant(6, 6)
    assert parse_stage("12x12") == Variant(12, 12)  # the FAU tournament's last stage
    with pytest.raises(TournamentError):
        parse_stage("six by six")
    with pytest.raises(InvalidVariantError, match="pits must be between 1 and 12"):
        parse_stage("13x12")


@pytest.mark.slow
def test_a_round_robin_tournament_over_two_stages(tmp_path):
    standings = tmp_path / "final"
    tournament = Tournament(3, [Variant(4, 3), Variant(5, 3)], games_per_pairing=2, wait=30, standings=standings)
    with ServerThread(tmp_path / "lib.sqlite", move_time=0.5, tournament=tournament) as server:
        agents = [
            subprocess.Popen(
                [
                    *kalah_command(),
                    "kgp",
                    f"127.0.0.1:{server.kgp_port}",
                    "--player",
                    f"alphabeta:depth={depth}",
                    "--name",
                    f"student-{depth}",
                    "--token",
                    f"token-of-student-{depth}",
                    "--retries",
                    "0",
                    "--quiet",
                ],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            for depth in (3, 5, 7)
        ]
        try:
            assert server.wait_for(tournament.finished.is_set, timeout=240), tournament.status
            live = httpx.get(f"http://127.0.0.1:{server.port}/api/tournament").json()
            page = httpx.get(f"http://127.0.0.1:{server.port}/tournament").text
            results = server.server.book.results(event=tournament.event)
        finally:
            for agent in agents:
                agent.kill()
                agent.wait(10)
    data = json.loads(standings.with_suffix(".json").read_text())
    assert data["status"] == "finished" and live["status"] == "finished"
    rows = data["standings"]
    assert sorted(row["name"] for row in rows) == ["student-3", "student-5", "student-7"]
    assert all(row["qualified"] for row in rows), rows  # a search beats the random bot
    # 3 pairs x 2 games x 2 stages, a point a game; each agent played 8 games (two stages, two opponents, two sides)
    assert sum(row["points"] for row in rows) == 12
    assert all(row["games"] == 8 for row in rows)
    # each agent's points are its scores in the stored games, and the standings are in the order of points
    assert {row["id"]: row["points"] for row in rows} == _points(results)
    assert rows == sorted(rows, key=lambda row: (-row["points"], -row["elo"], row["id"]))
    with standings.with_suffix(".csv").open() as handle:
        table = list(csv.DictReader(handle))
    assert [line["name"] for line in table] == [row["name"] for row in rows]
    assert "student-7" in page


@pytest.mark.slow
def test_a_swiss_tournament_pairs_agents_who_have_not_met(tmp_path):
    tournament = Tournament(
        4, [Variant(4, 3)], games_per_pairing=2, wait=30, swiss_rounds=3, standings=tmp_path / "swiss"
    )
    with ServerThread(tmp_path / "lib.sqlite", move_time=0.5, tournament=tournament) as server:
        agents = [
            subprocess.Popen(
                [
                    *kalah_command(),
                    "kgp",
                    f"127.0.0.1:{server.kgp_port}",
                    "--player",
                    f"alphabeta:depth={depth}",
                    "--name",
                    f"swiss-{depth}",
                    "--token",
                    f"token-of-swiss-{depth}",
                    "--retries",
                    "0",
                    "--quiet",
                ],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            for depth in (4, 6, 8, 10)
        ]
        try:
            assert server.wait_for(tournament.finished.is_set, timeout=240), tournament.status
            results = server.server.book.results(event=tournament.event)
            qualification = server.server.book.results(event=tournament.event + "-qualification")
        finally:
            for agent in agents:
                agent.kill()
                agent.wait(10)
    rows = json.loads((tmp_path / "swiss.json").read_text())["standings"]
    # a search of 4 moves or more beats the random bot: the whole field qualifies, as its games say
    assert all(row["qualified"] for row in rows) and len(rows) == 4, rows
    earned = _points(qualification)  # the random bot's points are there too
    assert all(earned[row["id"]] > 1 for row in rows), qualification
    # three rounds of two pairings, two games a pairing (one a side): 12 games, and no pair meets twice,
    # so the three rounds meet all six pairs of four agents once each
    assert len(results) == 12
    pairs = Counter(frozenset((r["south"], r["north"])) for r in results)
    assert len(pairs) == 6 and set(pairs.values()) == {2}
    assert len({(r["south"], r["north"]) for r in results}) == 12  # each of a pair's games on another side
    assert {row["id"]: row["points"] for row in rows} == _points(results)


def _points(results: list[dict]) -> dict[int, float]:
    """Each agent's points in stored results: its score in every game it played."""
    points: Counter[int] = Counter()
    for result in results:
        outcome = outcome_of(result)
        points[result["south"]] += outcome.score(0)
        points[result["north"]] += outcome.score(1)
    return dict(points)


def test_the_standings_are_ordered_by_points_then_rating_then_id(tmp_path):
    """Without a server: the field, points and results set by hand, ties made on purpose."""
    book = AgentBook(tmp_path / "lib.sqlite")
    ids = [book.bot(f"bot-{n}", "random").id for n in range(4)]
    tournament = Tournament(4, [Variant(4, 3)], event="cup")
    tournament._server = SimpleNamespace(book=book)  # type: ignore[assignment]
    tournament.field = list(ids)
    tournament.qualified = set(ids)
    # bot-3 beat bot-2 twice: equal points for both, bot-3 rated higher; bot-0 and bot-1 tie on everything
    book.record_result(1, ids[3], ids[2], Outcome(0), "20-4", "cup", "kalah(4,3)")
    book.record_result(2, ids[2], ids[3], Outcome(1), "4-20", "cup", "kalah(4,3)")
    tournament.points = {ids[0]: 1.0, ids[1]: 1.0, ids[2]: 2.0, ids[3]: 2.0}
    order = [row["id"] for row in tournament.standings()]
    assert order == [ids[3], ids[2], ids[0], ids[1]]
    tournament.points[ids[0]] = 3.0
    assert [row["id"] for row in tournament.standings()][0] == ids[0]
