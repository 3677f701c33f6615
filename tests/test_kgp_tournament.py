"""Tournament mode of the class server: a fixed field, a qualification against random, stages, standings."""

from __future__ import annotations

import csv
import json
import subprocess

import httpx
import pytest

from classroom_helpers import ServerThread
from kalah.classroom.tournament import Tournament, TournamentError, parse_stage
from kalah.rules import InvalidVariantError, Variant
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
    assert [row["points"] for row in rows] == sorted((row["points"] for row in rows), reverse=True)
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
            for depth in (2, 4, 6, 8)
        ]
        try:
            assert server.wait_for(tournament.finished.is_set, timeout=240), tournament.status
            results = server.server.book.results(event=tournament.event)
        finally:
            for agent in agents:
                agent.kill()
                agent.wait(10)
    rows = json.loads((tmp_path / "swiss.json").read_text())["standings"]
    qualified = [row for row in rows if row["qualified"]]
    # every round pairs the qualified agents two by two, and no pair meets twice
    pairs = [frozenset((r["south"], r["north"])) for r in results]
    assert len(set(pairs)) == len(pairs) // 2  # two games (one a side) per pairing
    assert len(results) == 2 * (len(qualified) // 2) * min(3, len(qualified) - 1)
