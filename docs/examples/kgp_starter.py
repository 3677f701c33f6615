"""A starter agent for the class server: a player class, played over KGP by kalah's own client.

KGP_SERVER=127.0.0.1:2671 KGP_TOKEN=a-long-secret python kgp_starter.py
"""

import os

import kalah
from kalah.kgp import ClientOptions, run_client


class MyAgent:
    """Improve choose_move: today it takes the move that gains most seeds at once (extra turns count 1)."""

    name = spec = "my-agent"

    def choose_move(self, position: kalah.Position) -> kalah.Move:
        me = position.to_move

        def gain(move: kalah.Move) -> int:
            after = position.play(move)
            again = after.to_move == me and not after.is_over
            return after.store(me) - after.store(1 - me) + again

        return max(position.legal_moves(), key=gain)


if __name__ == "__main__":
    games = int(os.environ.get("KGP_GAMES", "0")) or None  # 0: play until stopped
    options = ClientOptions(
        os.environ.get("KGP_SERVER", "127.0.0.1:2671"),
        name=os.environ.get("KGP_NAME", "my-agent"),
        token=os.environ.get("KGP_TOKEN"),
        games=games,
    )
    report = run_client(MyAgent(), options, events=lambda kind, text: print(text))
    print("stopped:", report.reason)
