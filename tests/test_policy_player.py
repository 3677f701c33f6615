"""The policy:file= player: a saved network plays its best legal move; bad files and servers refuse it."""

from __future__ import annotations

import random

import numpy as np
import pytest

from kalah import Position, Variant
from kalah.match import play_game
from kalah.players import ExternalPlayerRefusedError, PlayerSpecError, check_self_contained, make_player
from kalah.players.encoding import action_mask, observation
from kalah.players.policy import PolicyFileError, load_policy, save_policy


def _network(variant: Variant, seed: int = 0, hidden: int = 16):
    rng = np.random.default_rng(seed)
    inputs, outputs = 2 * variant.pits + 2, variant.pits + variant.pie_rule
    return [
        (rng.normal(size=(inputs, hidden)), rng.normal(size=hidden)),
        (rng.normal(size=(hidden, outputs)), rng.normal(size=outputs)),
    ]


def test_the_player_plays_the_legal_action_its_network_scores_highest(tmp_path):
    variant = Variant(6, 4, pie_rule=True)
    layers = _network(variant)
    path = tmp_path / "agent.npz"
    save_policy(path, variant, layers)
    player = make_player(f"policy:file={path}")
    rng = random.Random(1)
    position = Position.start(variant)
    chosen = set()
    while not position.is_over:
        seat = position.to_move
        x = np.array(observation(position, seat), np.float32) / variant.seeds
        scores = np.maximum(x @ layers[0][0] + layers[0][1], 0) @ layers[1][0] + layers[1][1]
        scores[np.array(action_mask(position, seat)) == 0] = -np.inf
        expected = int(np.argmax(scores))
        move = player.choose_move(position)
        assert (6 if move == "swap" else move) == expected
        chosen.add(move)
        position = position.play(move if rng.random() < 0.5 else rng.choice(position.legal_moves()))
    assert len(chosen) > 1
    record = play_game([player, make_player("random:seed=1")], Position.start(variant))
    assert record is not None


def test_servers_refuse_it_as_they_refuse_replay(tmp_path):
    path = tmp_path / "agent.npz"
    save_policy(path, Variant(), _network(Variant()))
    with pytest.raises(ExternalPlayerRefusedError, match="reads a file"):
        check_self_contained(f"policy:file={path}")
    with pytest.raises(ExternalPlayerRefusedError):
        make_player(f"policy:file={path}", allow_external=False)


def test_bad_files_are_refused_with_a_reason(tmp_path):
    variant = Variant(4, 3)
    good = _network(variant)
    cases = {
        "missing.npz": None,
        "text.npz": b"not a zip",
    }
    for name, content in cases.items():
        if content is not None:
            (tmp_path / name).write_bytes(content)
        with pytest.raises(PolicyFileError):
            make_player(f"policy:file={tmp_path / name}")
    pickled = tmp_path / "pickled.npz"
    np.savez(pickled, variant=np.array([4, 3, 0, 0]), w0=np.array([object()], dtype=object), b0=good[0][1])
    with pytest.raises(PolicyFileError):
        load_policy(pickled)
    no_variant = tmp_path / "no_variant.npz"
    np.savez(no_variant, w0=good[0][0], b0=good[0][1], w1=good[1][0], b1=good[1][1])
    with pytest.raises(PolicyFileError, match="variant"):
        load_policy(no_variant)
    bad_variant = tmp_path / "bad_variant.npz"
    np.savez(bad_variant, variant=np.array([13, 3, 0, 0]), w0=good[0][0], b0=good[0][1])  # the rules stop at 12
    with pytest.raises(PolicyFileError, match="pits"):
        load_policy(bad_variant)
    with pytest.raises(PolicyFileError, match="outputs"):
        save_policy(tmp_path / "short.npz", variant, good[:1])
    with pytest.raises(PolicyFileError, match="layer 1"):
        save_policy(tmp_path / "shapes.npz", variant, [good[0], (good[1][0][:3], good[1][1])])
    nan = [good[0], (good[1][0] * np.nan, good[1][1])]
    with pytest.raises(PolicyFileError, match="finite"):
        save_policy(tmp_path / "nan.npz", variant, nan)
    with pytest.raises(PlayerSpecError, match="file=PATH"):
        make_player("policy")


def test_it_plays_only_its_own_variant(tmp_path):
    path = tmp_path / "agent.npz"
    save_policy(path, Variant(4, 3), _network(Variant(4, 3)))
    player = make_player(f"policy:file={path}")
    assert player.choose_move(Position.start(Variant(4, 3))) in range(4)
    with pytest.raises(PolicyFileError, match="Kalah\\(4,3\\)"):
        player.choose_move(Position.start(Variant(6, 4)))


def test_the_web_server_refuses_a_policy_file_named_by_a_client(tmp_path):
    from fastapi.testclient import TestClient

    from kalah.web import create_app

    path = tmp_path / "agent.npz"
    save_policy(path, Variant(), _network(Variant()))
    with TestClient(
        create_app(tmp_path / "games.sqlite", workers=1, pool="thread"), base_url="http://localhost"
    ) as client:
        response = client.post("/api/games", json={"players": [f"policy:file={path}", "human"]})
        assert response.status_code == 403 and "reads a file" in response.json()["detail"]
        assert client.get("/api/games").json() == []


def _kalah(*args):
    import subprocess
    import sys

    return subprocess.run([sys.executable, "-m", "kalah.cli", *args], capture_output=True, text=True, timeout=300)


def test_a_policy_is_its_files_content(tmp_path):
    """The spec names the file's digest; a spec with a digest refuses a file trained again (issue 46)."""
    path = tmp_path / "agent.npz"
    save_policy(path, Variant(6, 4), _network(Variant(6, 4), seed=1))
    player = make_player(f"policy:file={path}")
    assert player.spec.startswith(f"policy:file={path},digest=") and len(player.spec.split("digest=")[1]) == 16
    assert make_player(player.spec).spec == player.spec
    save_policy(path, Variant(6, 4), _network(Variant(6, 4), seed=2))
    with pytest.raises(PolicyFileError, match="has changed"):
        make_player(player.spec)
    assert make_player(f"policy:file={path}").spec != player.spec
    with pytest.raises(PlayerSpecError, match="hex digits"):
        make_player(f"policy:file={path},digest=xyz")


def test_an_arena_after_training_again_plays_the_new_network(tmp_path):
    """It printed "(2 already played)" and the old network's score: arenas were keyed by the spec's text."""
    path, db = tmp_path / "agent.npz", tmp_path / "games.sqlite"
    args = ["arena", "-p", f"policy:file={path}", "-p", "greedy", "--games", "2", "--jobs", "1", "--db", str(db)]
    save_policy(path, Variant(6, 4), _network(Variant(6, 4), seed=1))
    first = _kalah(*args)
    assert first.returncode == 0, first.stderr
    save_policy(path, Variant(6, 4), _network(Variant(6, 4), seed=2))
    second = _kalah(*args)
    assert second.returncode == 0, second.stderr
    assert "already played" not in second.stderr
    import sqlite3

    with sqlite3.connect(db) as connection:
        specs = {row[0] for row in connection.execute("SELECT json_extract(tags, '$.arena') FROM games")}
    assert len(specs) == 2  # two arenas of two games each, one per network
    again = _kalah(*args)
    assert "(2 already played)" in again.stderr


def test_a_policy_of_another_variant_is_refused_before_any_game(tmp_path):
    """It was scored as forfeits with exit 0."""
    path, db = tmp_path / "agent.npz", tmp_path / "games.sqlite"
    save_policy(path, Variant(6, 4), _network(Variant(6, 4)))
    run = _kalah(
        "arena",
        "-p",
        f"policy:file={path}",
        "-p",
        "random",
        "--games",
        "2",
        "--pits",
        "4",
        "--seeds",
        "3",
        "--db",
        str(db),
    )
    assert run.returncode == 2
    assert run.stderr.strip().splitlines() == ["kalah: error: this policy plays Kalah(6,4), not Kalah(4,3)"]
    assert not db.exists()
    game = _kalah("play", "--player0", "random", "--player1", f"policy:file={path}", "--seeds", "3", "--quiet")
    assert game.returncode == 2 and game.stderr.strip().splitlines() == [
        "kalah: error: this policy plays Kalah(6,4), not Kalah(6,3)"
    ]
    with pytest.raises(PolicyFileError):
        play_game([make_player("random"), make_player(f"policy:file={path}")], Position.start(Variant(6, 3)))
