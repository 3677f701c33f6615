"""The service's answers field by field: a whole game through the API, each answer against the rules.

The service builds its answers as the response models (kalah.web.models); this checks that what goes on
the wire is exactly what the rules say, field for field and value for value (an integer stays an
integer, an absent field stays absent), for every state of a game with a take-back, a redo and the pie
rule, its replay, its line in the library, and the analyses of its positions against what the engine
worker computed.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient

import kalah.web.service as service_module
from kalah.rules import Position, Variant, move_name
from kalah.web import create_app
from kalah.web.levels import level_of_spec


def same(answer: Any, expected: Any) -> bool:
    """Equal as JSON text: the same keys, values and kinds of number (3 is not 3.0)."""
    return json.dumps(answer, sort_keys=True) == json.dumps(expected, sort_keys=True)


def effect(number: int, before: Position, move: Any) -> dict[str, Any]:
    _, done = before.play_explained(move)
    return {
        "number": number,
        "player": done.player,
        "move": done.move,
        "name": move_name(done.player, move),
        "before": before.board,
        "sown": list(done.sown),
        "extra_turn": done.extra_turn,
        "captured": done.captured,
        "capture_pit": done.capture_pit,
        "game_over": done.game_over,
    }


class Game:
    """The game as the test plays it: its players and moves, and the state the rules give it."""

    def __init__(self, variant: Variant, players: list[dict[str, str]], game_id: int, started_at: str) -> None:
        self.start = Position.start(variant)
        self.players = players
        self.id = game_id
        self.started_at = started_at
        self.moves: list[tuple[int, Any]] = []  # (player, move)
        self.redo: list[tuple[int, Any]] = []

    def positions(self) -> list[Position]:
        found = [self.start]
        for _, move in self.moves:
            found.append(found[-1].play(move))
        return found

    def humans(self) -> list[bool]:
        return [player["spec"] == "human" for player in self.players]

    def state(self) -> dict[str, Any]:
        positions = self.positions()
        position = positions[-1]
        humans = self.humans()
        over = position.is_over
        return {
            "id": self.id,
            "variant": position.variant.to_dict(),
            "variant_name": position.variant.name,
            "players": [
                {**player, "human": human, "level": level_of_spec(player["spec"])}
                for player, human in zip(self.players, humans, strict=False)
            ],
            "board": position.board,
            "to_move": position.to_move,
            "legal_moves": position.legal_moves(),
            "over": over,
            "status": "finished" if over else "playing",
            "scores": list(position.scores) if position.scores is not None else None,
            "winner": position.winner,
            "margin": position.margin,
            "termination": "board" if over else None,
            "human_to_move": not over and humans[position.to_move],
            "computer_to_move": not over and not humans[position.to_move],
            "moves": len(self.moves),
            "last": effect(len(self.moves), positions[-2], self.moves[-1][1]) if self.moves else None,
            "history": [move_name(player, move) for player, move in self.moves],
            "can_take_back": any(humans[player] for player, _ in self.moves),
            "can_redo": bool(self.redo),
            "started_at": self.started_at,
        }

    def replay(self) -> dict[str, Any]:
        positions = self.positions()
        frames = [
            {"board": positions[0].board, "to_move": positions[0].to_move, "over": positions[0].is_over, "last": None}
        ]
        for number, (_, move) in enumerate(self.moves, 1):
            after = positions[number]
            frames.append(
                {
                    "board": after.board,
                    "to_move": after.to_move,
                    "over": after.is_over,
                    "last": effect(number, positions[number - 1], move),
                }
            )
        state = self.state()
        return {key: state[key] for key in ("id", "players", "variant", "variant_name")} | {"frames": frames}

    def take_back(self) -> None:
        humans = self.humans()
        while self.moves:
            player, move = self.moves.pop()
            self.redo.insert(0, (player, move))
            if humans[player]:
                return


@pytest.fixture()
def client(tmp_path):
    with TestClient(
        create_app(tmp_path / "games.sqlite", workers=1, pool="thread"), base_url="http://localhost"
    ) as client:
        yield client


def test_a_whole_games_answers_are_the_rules_field_by_field(client):
    variant = {"pits": 4, "seeds": 3, "empty_capture": False, "pie_rule": True}
    answer = client.post("/api/games", json={"players": ["random:seed=3", "human"], "variant": variant})
    assert answer.status_code == 201, answer.text
    first = answer.json()
    # the creating page's secret for leaving the game unstarted (random: no rule gives it), then the state
    assert isinstance(first.pop("leave_token"), str)
    stored = client.get(f"/api/games/{first['id']}/record").json()
    game = Game(
        Variant(**variant),
        [{"name": p["name"], "spec": p["spec"]} for p in stored["players"]],
        first["id"],
        stored["started_at"],
    )
    assert same(first, game.state())

    took_back = False
    while not first["over"]:
        state = game.state()
        if state["human_to_move"]:
            move = state["legal_moves"][-1]  # the last: the swap when the pie rule offers it
            answer = client.post(f"/api/games/{game.id}/moves", json={"move": move, "moves": state["moves"]})
            game.moves.append((state["to_move"], move))
        else:
            answer = client.post(f"/api/games/{game.id}/computer-move", json={"moves": state["moves"]})
            assert answer.status_code == 200, answer.text
            played = client.get(f"/api/games/{game.id}/record").json()["moves"][-1]
            game.moves.append((played["player"], played["move"]))
        assert answer.status_code == 200, answer.text
        first = answer.json()
        assert same(first, game.state()), (first, game.state())
        if len(game.moves) >= 4 and not took_back and not first["over"]:
            took_back = True
            answer = client.post(f"/api/games/{game.id}/takeback", json={"moves": len(game.moves)})
            game.take_back()
            assert same(answer.json(), game.state()) and answer.json()["can_redo"]
            answer = client.post(f"/api/games/{game.id}/redo", json={"moves": len(game.moves)})
            game.moves, game.redo = game.moves + game.redo, []
            assert same(answer.json(), game.state())
    assert took_back and any(move == "swap" for _, move in game.moves)

    assert same(client.get(f"/api/games/{game.id}").json(), game.state())
    assert same(client.get(f"/api/games/{game.id}/replay").json(), game.replay())
    listed = client.get("/api/games").json()
    final = game.positions()[-1]
    assert same(
        listed,
        [
            {
                "id": game.id,
                "started_at": game.started_at,
                "players": game.players,
                "variant": variant,
                "moves": len(game.moves),
                "status": "finished",
                "scores": list(final.scores or ()),
                "winner": final.winner,
                "termination": "board",
                "stop_reason": None,
                "variant_name": final.variant.name,
                "live": False,
            }
        ],
    )


def test_analyses_answer_what_the_engine_worker_computed(client, monkeypatch):
    computed: list[dict[str, Any]] = []
    real = service_module.analyse

    def recording(position_json: str, seconds: float) -> dict[str, Any]:
        found = real(position_json, seconds)
        computed.append(json.loads(json.dumps(found)))
        return found

    monkeypatch.setattr(service_module, "analyse", recording)  # the thread pool runs it in this process
    position = Position.start(Variant(4, 2))
    while True:
        answer = client.post("/api/analyse", json={"position": position.to_dict(), "seconds": 0.05})
        assert answer.status_code == 200, answer.text
        assert same(answer.json(), computed[-1])
        if position.is_over:
            break
        position = position.play(position.legal_moves()[0])
    assert computed[-1]["source"] == "rules" and computed[-1]["exact"] and computed[-1]["best_moves"] == []
    # small enough for the solver, too big for the search to end: best_moves when the solver finishes in time
    solvable = Position.start(Variant(5, 3))
    answer = client.post("/api/analyse", json={"position": solvable.to_dict(), "seconds": 2})
    assert answer.status_code == 200 and same(answer.json(), computed[-1])
    game = client.post("/api/games", json={"players": ["human", "human"]}).json()
    answer = client.post(f"/api/games/{game['id']}/analysis", json={"seconds": 0.05})
    assert answer.status_code == 200 and same(answer.json(), computed[-1])
