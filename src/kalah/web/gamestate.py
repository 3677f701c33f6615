"""A stored game as the page sees it (``GameState``), read from its record, or made from the state before a
move rather than read back (a whole game of 40 moves read and replayed holds the interpreter about 2.5 ms,
the state made from the one before a tenth of that)."""

from __future__ import annotations

from kalah.players import PlayerSpecError, parse_spec
from kalah.records import GameRecord, GameSummary, PlayerInfo, StoredGame
from kalah.rules import KalahError, Move, Position, Variant, move_name

from .levels import level_of_spec
from .models import EffectOut, FrameOut, GameState, GameSummaryOut, PlayerOut, ReplayOut, SideOut, VariantOut


def is_human(spec: str) -> bool:
    """Whether a stored player's spec is a person's."""
    try:
        return parse_spec(spec)[0] == "human"
    except PlayerSpecError:
        return False


def players_out(players: list[PlayerInfo]) -> list[PlayerOut]:
    """The players as the page shows them."""
    return [PlayerOut(name=p.name, spec=p.spec, human=is_human(p.spec), level=level_of_spec(p.spec)) for p in players]


def effect_out(number: int, before: Position, move: Move) -> EffectOut:
    """What move ``number`` (``move`` played from ``before``) did, for the page to draw."""
    _, effect = before.play_explained(move)
    return EffectOut(
        number=number,
        player=effect.player,
        move=effect.move,
        name=move_name(effect.player, move),
        before=before.board,
        sown=list(effect.sown),
        extra_turn=effect.extra_turn,
        captured=effect.captured,
        capture_pit=effect.capture_pit,
        game_over=effect.game_over,
    )


def score_text(position: Position) -> str:
    """The scores of a game over: '25-23'."""
    scores = position.scores or (0, 0)
    return f"{scores[0]}-{scores[1]}"


def take_back_count(record: GameRecord, humans: list[bool]) -> int:
    """How many moves a take-back removes: back to before the last human move (one move when no side is
    human)."""
    if not record.moves:
        return 0
    if not any(humans):
        return 1
    for count, recorded in enumerate(reversed(record.moves), 1):
        if humans[recorded.player]:
            return count
    return 0


def state_of(game_id: int, record: GameRecord, status: str, can_redo: bool) -> GameState:
    """The state of a game from its record and what the library says of it."""
    positions = list(record.positions())
    position = positions[-1]
    players = players_out(record.players)
    last = effect_out(len(record.moves), positions[-2], record.moves[-1].move) if record.moves else None
    humans = [player.human for player in players]
    over = position.is_over
    outcome = record.outcome
    playing = not over and record.decision is None  # a stopped game may be continued; a decided one not
    return GameState(
        id=game_id,
        variant=VariantOut(**position.variant.to_dict()),
        variant_name=position.variant.name,
        players=players,
        board=position.board,
        to_move=position.to_move,
        legal_moves=position.legal_moves(),
        over=over,
        status=status,
        scores=list(position.scores) if position.scores is not None else None,
        winner=outcome.winner if outcome else None,
        margin=position.margin,
        termination=outcome.termination if outcome else None,
        human_to_move=playing and humans[position.to_move],
        computer_to_move=playing and not humans[position.to_move],
        moves=len(record.moves),
        last=last,
        history=[move_name(m.player, m.move) for m in record.moves],
        can_take_back=take_back_count(record, humans) > 0,
        can_redo=can_redo,
        started_at=record.started_at,
    )


def stored_state(stored: StoredGame) -> GameState:
    """The state of a game as one read of the library found it."""
    return state_of(stored.summary.id, stored.record, stored.summary.status, stored.redo_steps > 0)


def state_after(state: GameState, before: Position, move: Move, after: Position) -> GameState:
    """The state after ``move`` (played from ``before``, stored by ``GameLibrary.add_move``), made from the
    state before it. What ``add_move`` stored follows from the position: the status, and an emptied redo list."""
    humans = [player.human for player in state.players]
    over = after.is_over
    number = state.moves + 1
    return state.model_copy(
        update={
            "board": after.board,
            "to_move": after.to_move,
            "legal_moves": after.legal_moves(),
            "over": over,
            "status": "finished" if over else "playing",
            "scores": list(after.scores) if after.scores is not None else None,
            "winner": after.winner,
            "margin": after.margin,
            "termination": "board" if over else None,
            "human_to_move": not over and humans[after.to_move],
            "computer_to_move": not over and not humans[after.to_move],
            "moves": number,
            "last": effect_out(number, before, move),
            "history": [*state.history, move_name(before.to_move, move)],
            # take_back_count > 0: some move is a human's (any move, when neither side is human)
            "can_take_back": state.can_take_back or humans[before.to_move] or not any(humans),
            "can_redo": False,
        }
    )


def summary_out(summary: GameSummary) -> GameSummaryOut:
    """A game of the library list."""
    try:
        variant_name = Variant.from_dict(summary.variant).name
    except KalahError:
        variant_name = str(summary.variant)
    return GameSummaryOut(
        id=summary.id,
        started_at=summary.started_at,
        players=[SideOut(name=p.name, spec=p.spec) for p in summary.players],
        variant=summary.variant,
        variant_name=variant_name,
        moves=summary.moves,
        status=summary.status,
        scores=list(summary.scores) if summary.scores else None,
        winner=summary.winner,
        termination=summary.outcome.termination if summary.outcome else None,
        stop_reason=summary.stop_reason,
        live=summary.tags.get("source") == "live",
    )


def replay_out(game_id: int, record: GameRecord) -> ReplayOut:
    """Every position of a game with what each move did."""
    positions = list(record.positions())
    frames = [FrameOut(board=positions[0].board, to_move=positions[0].to_move, over=positions[0].is_over, last=None)]
    for number, recorded in enumerate(record.moves, 1):
        after = positions[number]
        frames.append(
            FrameOut(
                board=after.board,
                to_move=after.to_move,
                over=after.is_over,
                last=effect_out(number, positions[number - 1], recorded.move),
            )
        )
    return ReplayOut(
        id=game_id,
        players=players_out(record.players),
        variant=VariantOut(**record.variant.to_dict()),
        variant_name=record.variant.name,
        frames=frames,
    )
