"""KGP ``mode eval`` on the class server: an agent's decisions graded against perfect play.

An agent that chooses ``mode eval`` (instead of ``freeplay``) is given
:data:`POSITIONS` positions one after the other, each with the move time, as
in a game (``ID state <board>``, the agent south): late positions of the
server's board reached by random play, each proven by
:func:`kalah.analysis.analyse` (the judge of ``kalah review`` and of
:mod:`.grading`; a position it cannot prove is replaced). The protocol's
answer is ``@ID eval X``, the agent's value of the position in seeds from its
own point of view, graded by its distance from the proven value; moves it
sends too (``@ID move k``, the last legal one counts) are graded as in a
game (accuracy, seeds lost, blunders). The server answers with
``set eval:result "positions 10 eval-error 1.50 seeds (10 answered) moves 10
accuracy 90% loss 0.40 seeds/move blunders 0"`` and ``goodbye``, and logs the
same line.
"""

from __future__ import annotations

import asyncio
import logging
import random
from typing import Any

from kalah.analysis import Analysis, analyse
from kalah.kgp import Word
from kalah.review import classify
from kalah.rules import Position, Variant

from .session import AgentSession, Disconnected

log = logging.getLogger(__name__)
#: Positions an evaluation asks for.
POSITIONS = 10
#: Seconds the judge has to prove each position.
PROVE_SECONDS = 1.0
#: Seeds left in the pits below which a random game's position is taken (late: the solver proves it at once).
LATE = 18


def sample(variant: Variant, rng: random.Random) -> Position:
    """A late position of ``variant`` reached by random moves, with a choice to make (two legal moves or more)."""
    while True:
        position = Position.start(variant)
        while not position.is_over:
            in_pits = sum(sum(row[:-1]) for row in position.board)
            if in_pits <= max(LATE, variant.pits * 2) and len(position.legal_moves()) > 1:
                return position
            position = position.play(rng.choice(position.legal_moves()))


def proven(variant: Variant, rng: random.Random) -> Analysis:
    """A sampled position proven exactly, every move valued (tried until one is)."""
    for _ in range(20):
        analysis = analyse(sample(variant, rng), PROVE_SECONDS, threads=1)
        if analysis.exact and all(entry.exact for entry in analysis.moves):
            return analysis
    raise RuntimeError(f"no position of {variant.name} could be proven")


async def evaluate(session: AgentSession, variant: Variant, move_time: float, seed: int) -> dict[str, Any]:
    """Give the agent :data:`POSITIONS` positions, grade what it answers, tell it and close; the summary
    (empty when the agent left before the end)."""
    rng = random.Random(seed)
    losses: list[float] = []
    errors: list[float] = []
    late = 0
    try:
        for _ in range(POSITIONS):
            analysis = await asyncio.to_thread(proven, variant, rng)
            pending = await session.decide(analysis.position, move_time, "eval", "", False)
            assert analysis.value is not None
            if pending.move is not None:
                value = next(entry.value for entry in analysis.moves if entry.move == pending.move)
                losses.append(float(analysis.value - (value or 0)))
            if pending.evaluation is not None:
                errors.append(abs(pending.evaluation - analysis.value))
            if pending.move is None and pending.evaluation is None:
                late += 1
    except Disconnected:
        log.info("%s left during its evaluation", session.describe())
        return {}
    good = sum(1 for loss in losses if classify(loss) in ("best", "good"))
    summary = {
        "positions": POSITIONS,
        "eval_error": round(sum(errors) / len(errors), 2) if errors else None,
        "evaluated": len(errors),
        "moves": len(losses),
        "accuracy": round(100 * good / len(losses), 1) if losses else None,
        "loss_per_move": round(sum(losses) / len(losses), 2) if losses else None,
        "blunders": sum(1 for loss in losses if classify(loss) == "blunder"),
        "silent": late,
    }
    text = f"positions {POSITIONS} eval-error " + (
        f"{summary['eval_error']:.2f} seeds ({len(errors)} answered)" if errors else "- (none answered)"
    )
    if losses:
        text += (
            f" moves {len(losses)} accuracy {summary['accuracy']:g}% loss {summary['loss_per_move']:.2f} seeds/move"
            f" blunders {summary['blunders']}"
        )
    log.info("%s evaluated: %s", session.describe(), text)
    try:
        await session.send("set", Word("eval:result"), text)
        await session.send("goodbye")
    except Disconnected:
        pass
    await session.connection.close()
    return summary
