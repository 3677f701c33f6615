"""Search players use the endgame databases when they are on disk."""

from kalah import Position, Variant
from kalah.endgame import build
from kalah.players import make_player


def test_search_player_probes_a_database_on_disk(tmp_path, monkeypatch):
    variant = Variant(4, 3)
    monkeypatch.setenv("KALAH_ENDGAME_DIR", str(tmp_path))
    position = Position([[1, 2, 0, 1, 10], [2, 0, 1, 1, 6]], 0, variant)  # 8 seeds left in the pits

    without = make_player("alphabeta:depth=2")
    without.choose_move(position)
    assert "endgame_probes" not in without.last_info and not without.last_info["exact"]

    build(variant, 8, tmp_path, threads=1)
    player = make_player("alphabeta:depth=2")
    player.choose_move(position)
    assert player.last_info["endgame_probes"] > 0
    assert player.last_info["exact"] is True  # every leaf at depth 2 has at most 8 seeds: all exact

    from kalah import solve

    assert player.last_info["value"] == solve(position, endgame=None).value
