"""Search players: ``minimax``, ``alphabeta``, ``scout``, ``pvs``, ``mtdf`` and ``mcts``.

Specs, e.g. ``minimax:depth=4``, ``alphabeta:depth=12,eval=seed``,
``scout:depth=10``, ``pvs:time=1.5``, ``mtdf:time=1``, ``mcts:playouts=20000``.
``time=`` is seconds per move: progressive deepening that plays the move of
the last completed iteration. ``depth=`` and ``time=`` together: deepen up to
the depth while time allows. With ``time=`` the player manages its time as a
player with a clock does (``manage=off`` turns it off): a forced move is
played at once, a move whose choice has settled (the same best move for two
iterations after most of the time) early, and the time saved goes to the moves
where the choice is still open, up to twice ``time`` for one move; the game
never takes more than ``time`` per move on average (see :func:`time_budget`).
``threads=N`` (all but mcts) searches on N threads sharing the table (default:
every usable core with ``time=``, one at a fixed depth; see :func:`kalah.search`).
``ponder=on`` (pvs and mtdf with ``time=``) thinks on the opponent's time: after
its move the player goes on searching the position the opponent faces, on one
thread, until the opponent has moved (or :data:`PONDER_SECONDS` pass), and
starts its next search from that table. ``book=on`` (pvs and mtdf) plays the move of the opening
book that ships for the variant (:mod:`kalah.book`: solved moves, in Kalah(6,3), (6,4) and (6,5)) where
it holds the position, at once, and a timed player banks the time. After each move ``last_info`` says what the search
found: value (seeds, for the player), depth, nodes, principal variation, and
``outcome`` such as ``"wins by 6"`` once the search has proven the result.
"""

from __future__ import annotations

import threading

from kalah.book import BookEntry, lookup
from kalah.core.builds import Engine
from kalah.core.search import MAX_THREADS
from kalah.endgame import oracle_for
from kalah.rules import Move, Position
from kalah.rules.wording import plural
from kalah.search import (
    ALGORITHMS,
    EVALUATIONS,
    MAX_DEPTH,
    MAX_PLAYOUTS,
    PRACTICAL_ALGORITHMS,
    SearchError,
    check_evaluation,
    search,
)

from .base import ComputerPlayer
from .spec import PlayerSpecError, float_option, int_option, register_player

DEFAULT_DEPTHS = {"minimax": 6, "alphabeta": 10, "scout": 10, "pvs": 10, "mtdf": 10}
DEFAULT_PLAYOUTS = 10000
#: Time management: the most seconds kept for later moves, in moves' worth of ``time``.
MAX_BANK = 4.0
#: The longest a player ponders after its move when nobody stops it (e.g. the game ended).
PONDER_SECONDS = 60.0


def time_budget(per_move: float, bank: float) -> tuple[float, float]:
    """The hard and soft limits of one move's search: ``per_move`` plus up to one more ``per_move`` from
    ``bank`` (the time earlier moves saved); and the soft limit, after which a search whose best move has
    settled stops: most of ``per_move`` plus a quarter of the bank, so that settled moves save a little,
    open moves spend it, and a game uses nearly all of its time.

    >>> time_budget(1.0, 0.0), time_budget(1.0, 0.4), time_budget(1.0, 3.0)
    ((1.0, 0.8), (1.4, 0.9), (2.0, 1.55))
    """
    bank = max(bank, 0.0)
    hard = per_move + min(bank, per_move)
    return hard, min(hard, 0.8 * per_move + 0.25 * bank)


class SearchPlayer(ComputerPlayer):
    """Plays the best move of a compiled search (ties: the lowest pit index).

    Where an endgame database of the variant is on disk (``kalah endgame
    build``), the search takes its values as exact for positions it covers.

    The player owns its search engine and keeps the engine's table from one of
    its moves to the next (``reset`` starts afresh): the subtrees
    it searched last move answer at once. At a fixed depth its moves are those
    of a cold search at that depth; only nodes and time change. A timed pvs or
    mtdf player also lets last move's deeper entries answer (``exact_depth`` in
    :func:`kalah.search`), which makes it deeper and stronger.
    """

    transient = ("_engine", "_pondering", "_table_for")

    def __init__(
        self,
        algorithm: str = "pvs",
        depth: int | None = None,
        time: float | None = None,
        evaluation: str = "strong",
        playouts: int | None = None,
        seed: int = 0,
        memo: bool = True,
        manage: bool = True,
        ponder: bool = False,
        threads: int | None = None,
        book: bool = False,
    ) -> None:
        super().__init__()
        if book and algorithm not in PRACTICAL_ALGORITHMS:
            raise SearchError("book needs pvs or mtdf")
        self.book = book
        if algorithm not in ALGORITHMS:
            raise SearchError(f"unknown algorithm {algorithm!r}; accepted: {', '.join(ALGORITHMS)}")
        if ponder and (algorithm not in PRACTICAL_ALGORITHMS or time is None or not memo):
            raise SearchError("ponder needs pvs or mtdf with time=SECONDS (and the table on)")
        self.ponder = ponder
        self.threads = threads  # None: the search's default (every core for time=, one at a fixed depth)
        self._pondering: threading.Thread | None = None
        self.algorithm = algorithm
        self.evaluation = check_evaluation(evaluation)
        self.time = time
        self.seed = seed
        self.memo = memo
        self.manage = manage and time is not None and algorithm != "mcts"
        self._bank = 0.0  # seconds saved by earlier moves of this game
        if algorithm == "mcts":
            self.depth = None
            self.playouts = playouts if playouts is not None or time is not None else DEFAULT_PLAYOUTS
        else:
            self.depth = depth if depth is not None or time is not None else DEFAULT_DEPTHS[algorithm]
            self.playouts = None
        self._engine: Engine | None = None
        self._table_for: tuple[object, object] | None = None  # what the table was filled for
        self._calls = 0
        limits = []
        if self.depth is not None:
            limits.append(f"depth {self.depth}")
        if self.time is not None:
            limits.append(f"{self.time:g}s")
        if self.playouts is not None:
            limits.append(plural(self.playouts, "playout", grouped=False))
        if algorithm != "mcts":
            limits.append(self.evaluation)
        self.name = f"{algorithm} ({', '.join(limits)})"
        options = []
        if self.depth is not None:
            options.append(f"depth={self.depth}")
        if self.time is not None:
            options.append(f"time={self.time:g}")
        if self.playouts is not None:
            options.append(f"playouts={self.playouts}")
        if algorithm != "mcts" and self.evaluation != "strong":
            options.append(f"eval={self.evaluation}")
        if algorithm == "mcts" and seed:
            options.append(f"seed={seed}")
        if self.time is not None and algorithm != "mcts" and not manage:
            options.append("manage=off")
        if ponder:
            options.append("ponder=on")
        if threads is not None:
            options.append(f"threads={threads}")
        if book:
            options.append("book=on")
        self.spec = algorithm + (":" + ",".join(options) if options else "")

    def reset(self) -> None:
        """Forget the last game (a new game starts)."""
        self.stop_thinking()
        self._calls = 0
        self._table_for = None
        self._bank = 0.0

    def stop_thinking(self) -> None:
        """Stop pondering (thinking on the opponent's time), and wait until the search has returned."""
        thread, self._pondering = self._pondering, None
        while thread is not None and thread.is_alive():
            assert self._engine is not None
            self._engine.stop()  # again until it is seen: the search may not have started yet
            thread.join(0.005)

    def _start_pondering(self, position: Position, oracle: object | None) -> None:
        """Search ``position`` (the opponent to move) in the background, filling the table for the next move."""
        engine = self._engine

        def think() -> None:
            search(
                position,
                self.algorithm,
                oracle=oracle,
                keep_table=True,
                time=PONDER_SECONDS,
                evaluation=self.evaluation,
                move_values=False,
                engine=engine,
                threads=1,
            )

        self._pondering = threading.Thread(target=think, name="kalah-ponder", daemon=True)
        self._pondering.start()

    def choose_move(self, position: Position) -> Move:
        """The best move of a search with the player's algorithm, depth or time, and evaluation."""
        self.stop_thinking()
        if self.algorithm != "mcts" and self._engine is None:
            self._engine = Engine(20)
        entry = lookup(position) if self.book else None
        if entry is not None:
            return self._book_move(entry)
        oracle = None if self.algorithm == "mcts" else oracle_for(position.variant)
        # Table values hold for one variant's rules, with or without exact endgames (the database on
        # disk for a variant is the same from move to move; a new capsule is made for every call).
        table_for = (position.variant, oracle is not None)
        keep_table = self.memo and self._table_for == table_for
        self._table_for = table_for
        hard, soft = time_budget(self.time, self._bank) if self.manage and self.time else (self.time, None)
        result = search(
            position,
            self.algorithm,
            oracle=oracle,
            keep_table=keep_table,
            depth=self.depth,
            time=hard,
            soft_time=soft,
            evaluation=self.evaluation,
            move_values=False,
            memo=self.memo,
            playouts=self.playouts,
            seed=self.seed + self._calls,
            engine=self._engine,
            threads=self.threads,
        )
        self._calls += 1
        if self.manage and self.time:
            self._bank = min(max(0.0, self._bank + self.time - result.stats.seconds), MAX_BANK * self.time)
        info: dict[str, object] = {
            "algorithm": self.algorithm,
            "value": result.value,
            "depth": result.stats.depth,
            "nodes": result.stats.nodes,
            "seconds": round(result.stats.seconds, 4),
            "pv": list(result.pv),
            "exact": result.exact,
        }
        if result.stats.oracle_probes:
            info["endgame_probes"] = result.stats.oracle_probes
        if self.algorithm == "mcts":
            info["playouts"] = result.stats.playouts
            info["win_rate"] = result.extra.get("win_rate")
        if result.outcome:
            info["outcome"] = result.outcome
        self.last_info = info
        if result.best_move is None:
            raise SearchError("the game is over: there is no move to choose")
        if self.ponder:
            after = position.play(result.best_move)
            if not after.is_over and after.to_move != position.to_move:
                info["pondering"] = True
                self._start_pondering(after, oracle)
        return result.best_move

    def _book_move(self, entry: BookEntry) -> Move:
        """The book's move: exact and instant; the time of the move goes to the bank for later moves."""
        if self.manage and self.time:
            self._bank = min(self._bank + self.time, MAX_BANK * self.time)
        self._calls += 1
        self.last_info = {
            "algorithm": self.algorithm,
            "value": entry.value,
            "exact": True,
            "book": True,
            "best_moves": list(entry.best_moves),
        }
        return entry.move


def _factory(algorithm: str):
    def make(
        depth: str | None = None,
        time: str | None = None,
        eval: str | None = None,
        playouts: str | None = None,
        seed: str | None = None,
        memo: str | None = None,
        manage: str | None = None,
        ponder: str | None = None,
        threads: str | None = None,
        book: str | None = None,
    ) -> SearchPlayer:
        # Options the algorithm does not take never get here (make.option_names): make_player names them.
        with_book = book is not None and book.lower() in ("1", "true", "yes", "on")
        pondering = ponder is not None and ponder.lower() in ("1", "true", "yes", "on")
        if pondering and time is None:
            raise PlayerSpecError("ponder=on needs time=SECONDS (it thinks on the opponent's time)")
        evaluation = (eval or "strong").strip().lower()
        if evaluation not in EVALUATIONS:
            raise PlayerSpecError(f"unknown evaluation {eval!r}; accepted: {', '.join(EVALUATIONS)}")
        for option, value in (("memo", memo), ("manage", manage), ("ponder", ponder), ("book", book)):
            if value is not None and value.lower() not in ("0", "1", "true", "false", "yes", "no", "on", "off"):
                raise PlayerSpecError(f"option {option} must be on or off, got {value!r}")
        return SearchPlayer(
            algorithm,
            depth=int_option("depth", depth, minimum=1, maximum=MAX_DEPTH),
            time=float_option("time", time),
            evaluation=evaluation,
            playouts=int_option("playouts", playouts, minimum=1, maximum=MAX_PLAYOUTS),
            seed=int_option("seed", seed, default=0, minimum=0),
            memo=memo is None or memo.lower() in ("1", "true", "yes", "on"),
            manage=manage is None or manage.lower() in ("1", "true", "yes", "on"),
            ponder=pondering,
            threads=int_option("threads", threads, None, minimum=1, maximum=MAX_THREADS),
            book=with_book,
        )

    make.option_names = frozenset(_OPTIONS[algorithm])  # type: ignore[attr-defined]
    return make


#: How each option of a search player is written in its summary.
_OPTION_TEXT = {
    "depth": "depth=N",
    "time": "time=SECONDS",
    "eval": "eval=strong|store|seed",
    "memo": "memo=on|off",
    "manage": "manage=on|off",
    "ponder": "ponder=on|off",
    "threads": "threads=N",
    "book": "book=on|off",
    "playouts": "playouts=N",
    "seed": "seed=N",
}
_CLASSIC = ("depth", "time", "eval", "memo", "manage", "threads")
#: The options each algorithm takes: one list for the spec's check and the summary /api/info shows. The
#: book and pondering need pvs or mtdf (the practical algorithms' time management).
_OPTIONS = {
    "minimax": _CLASSIC,
    "alphabeta": _CLASSIC,
    "scout": _CLASSIC,
    "pvs": (*_CLASSIC, "ponder", "book"),
    "mtdf": (*_CLASSIC, "ponder", "book"),
    "mcts": ("playouts", "time", "seed"),
}
_SUMMARIES = {
    "minimax": "plain negamax search (memoized as in the seeds)",
    "alphabeta": "alpha-beta with bound-flag table, progressive deepening, move ordering",
    "scout": "Pearl's SCOUT (EVAL/TEST) with memoization and progressive deepening",
    "pvs": "principal variation search (NegaScout)",
    "mtdf": "MTD(f): null-window alpha-beta with memory",
    "mcts": "UCT Monte-Carlo tree search with compiled random playouts",
}

for _name in ALGORITHMS:
    register_player(
        _name, _factory(_name), _SUMMARIES[_name], ", ".join(_OPTION_TEXT[option] for option in _OPTIONS[_name])
    )
