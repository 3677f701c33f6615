"""Ratings with 95% intervals from a round robin's games.

Method: the Bradley-Terry model on the Elo scale, fitted by maximum
likelihood. Player ``i`` has strength ``r_i``; the expected score of ``i``
against ``j`` is ``1 / (1 + 10 ** ((R_j - R_i) / 400))`` with
``R = 400 / ln 10 * r``. A draw counts as half a win and half a loss. To keep
a player who won (or lost) every game finite, every pairing that met gets one
virtual draw (a weak prior towards equality). Ratings are relative: they
are shifted so that their mean is 0.

The 95% interval is the normal approximation ``R_i +- 1.96 * se_i``, where
``se_i`` comes from the inverse of the Fisher information (its
pseudo-inverse, which matches the mean-zero constraint). For two players this
is the familiar logistic Elo difference from the score, with the usual
standard error. It is the uncertainty of a player's rating relative to the
field's average, and it ignores draws' lower variance, so it is a little
conservative.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

ELO_PER_NATURAL = 400 / math.log(10)
Z95 = 1.959963984540054
VIRTUAL_DRAWS = 1.0


@dataclass(frozen=True)
class Rating:
    """An Elo rating with its 95% confidence interval."""

    elo: float
    low: float  # 95% interval
    high: float

    @property
    def error(self) -> float:
        """Half the width of the 95% interval, in Elo."""
        return (self.high - self.low) / 2


def fit_ratings(
    count: int, games: Iterable[tuple[int, int, float]], virtual_draws: float = VIRTUAL_DRAWS
) -> list[Rating]:
    """Ratings of players ``0..count-1`` from games ``(i, j, score of i)``
    (score 1 win, 0.5 draw, 0 loss)."""
    played = np.zeros((count, count))
    scored = np.zeros((count, count))  # scored[i, j]: points i took from j
    for i, j, score in games:
        played[i, j] += 1
        played[j, i] += 1
        scored[i, j] += score
        scored[j, i] += 1 - score
    met = played > 0
    played = played + virtual_draws * met
    scored = scored + 0.5 * virtual_draws * met
    r = np.zeros(count)
    if count < 2:
        return [Rating(0.0, 0.0, 0.0) for _ in range(count)]
    for _ in range(100):
        expected = 1 / (1 + np.exp(r[None, :] - r[:, None]))  # expected[i, j]: i's expected score vs j
        gradient = (scored - played * expected).sum(axis=1)
        weights = played * expected * (1 - expected)
        information = np.diag(weights.sum(axis=1)) - weights
        step = np.linalg.pinv(information) @ gradient
        r = r + step
        r -= r.mean()
        if np.max(np.abs(step)) < 1e-10:
            break
    expected = 1 / (1 + np.exp(r[None, :] - r[:, None]))
    weights = played * expected * (1 - expected)
    covariance = np.linalg.pinv(np.diag(weights.sum(axis=1)) - weights)
    ratings = []
    for i in range(count):
        elo = float(r[i] * ELO_PER_NATURAL)
        variance = float(covariance[i, i])
        error = Z95 * math.sqrt(variance) * ELO_PER_NATURAL if variance > 0 and played[i].sum() > 0 else math.inf
        ratings.append(Rating(elo, elo - error, elo + error))
    return ratings


def elo_from_score(score: float) -> float:
    """The Elo difference that predicts ``score`` (0 < score < 1)."""
    return -400 * math.log10(1 / score - 1)
