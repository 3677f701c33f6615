# cython: language_level=3, boundscheck=False, wraparound=False
"""Many games stepped together in compiled code (csrc/batch.h): the engine of kalah.rl's batched environment.

The caller owns the arrays (NumPy arrays or any writable buffer of the right
type and shape); a step fills them in place, without the GIL, so that a
learning loop pays for one Python call per batch, not per game.
"""

from libc.stdint cimport int16_t, int64_t, int8_t, uint8_t, uint64_t
from libc.stdlib cimport calloc, free

from kalah.core.board cimport (KALAH_SWAP_AVAILABLE, kalah_rng, kalah_rules, kalah_state, position_from_state,
                               rules_from_variant)

OPPONENTS = {"random": 0, "greedy": 1}


cdef extern from "csrc/batch.h" nogil:
    enum:
        KB_SEAT_RANDOM

    ctypedef struct kb_config:
        kalah_rules rules
        int opponent
        int seat
        int margin_reward

    ctypedef struct kb_output:
        uint8_t *obs
        int8_t *mask
        float *reward
        uint8_t *terminated
        uint8_t *final_obs
        int16_t *margin
        uint8_t *illegal

    void kb_reset(const kb_config *c, kalah_state *states, uint8_t *seats, int n, kalah_rng *g, kb_output *out)
    int64_t kb_step(const kb_config *c, kalah_state *states, uint8_t *seats, const int64_t *actions, int n,
                    kalah_rng *g, kb_output *out)
    void kb_random_actions(const kb_config *c, const kalah_state *states, int n, kalah_rng *g, int64_t *actions)


cdef class BatchGames:
    """``n`` games of ``variant``, each a learning agent at a seat against a built-in opponent.

    ``opponent`` is "random" (uniform legal moves) or "greedy" (the move that
    fills its store most, an extra turn preferred, ties at random); ``seat``
    is 0, 1 or "random" (drawn at each game's start); ``margin_reward``
    makes the reward the agent's final margin in seeds instead of +1, 0, -1.
    """

    cdef kb_config config
    cdef kalah_state *states
    cdef uint8_t *seat_of
    cdef kalah_rng rng
    cdef readonly int n
    cdef readonly object variant
    cdef int obs_size, actions

    def __cinit__(self, int n, variant, str opponent="random", seat=0, bint margin_reward=False):
        if n < 1:
            raise ValueError(f"n must be at least 1, got {n}")
        if opponent not in OPPONENTS:
            raise ValueError(f"opponent must be one of {', '.join(OPPONENTS)}, got {opponent!r}")
        if seat not in (0, 1, "random") or isinstance(seat, bool):
            raise ValueError(f"seat must be 0, 1 or 'random', got {seat!r}")
        self.n = n
        self.variant = variant
        rules_from_variant(&self.config.rules, variant)
        self.config.opponent = OPPONENTS[opponent]
        self.config.seat = KB_SEAT_RANDOM if seat == "random" else seat
        self.config.margin_reward = margin_reward
        self.obs_size = 2 * variant.pits + 2
        self.actions = variant.pits + (1 if variant.pie_rule else 0)
        self.states = <kalah_state *>calloc(n, sizeof(kalah_state))
        self.seat_of = <uint8_t *>calloc(n, 1)
        if self.states == NULL or self.seat_of == NULL:
            raise MemoryError()
        self.rng.state = 0

    def __dealloc__(self):
        free(self.states)
        free(self.seat_of)

    def seed(self, uint64_t seed):
        """Restart the generator that draws the seats and the opponents' moves."""
        self.rng.state = seed

    def reset(self, uint8_t[:, ::1] obs, int8_t[:, ::1] mask):
        """Start every game; fills the first observations and action masks."""
        self._check(obs, self.obs_size, "obs")
        self._check(mask, self.actions, "mask")
        cdef kb_output out
        out.obs = &obs[0, 0]
        out.mask = &mask[0, 0]
        with nogil:
            kb_reset(&self.config, self.states, self.seat_of, self.n, &self.rng, &out)

    def step(self, const int64_t[::1] actions, uint8_t[:, ::1] obs, int8_t[:, ::1] mask, float[::1] reward,
             uint8_t[::1] terminated, uint8_t[:, ::1] final_obs, int16_t[::1] margin, uint8_t[::1] illegal):
        """One action per game (see csrc/batch.h); returns the number of moves played, opponents' included."""
        if actions.shape[0] != self.n:
            raise ValueError(f"expected {self.n} actions, got {actions.shape[0]}")
        self._check(obs, self.obs_size, "obs")
        self._check(final_obs, self.obs_size, "final_obs")
        self._check(mask, self.actions, "mask")
        for name, column in (("reward", reward), ("terminated", terminated), ("margin", margin),
                             ("illegal", illegal)):
            if column.shape[0] != self.n:
                raise ValueError(f"{name} must have {self.n} rows")
        cdef kb_output out
        out.obs = &obs[0, 0]
        out.mask = &mask[0, 0]
        out.reward = &reward[0]
        out.terminated = &terminated[0]
        out.final_obs = &final_obs[0, 0]
        out.margin = &margin[0]
        out.illegal = &illegal[0]
        cdef int64_t played
        with nogil:
            played = kb_step(&self.config, self.states, self.seat_of, &actions[0], self.n, &self.rng, &out)
        return played

    def random_actions(self, int64_t[::1] actions):
        """Fill ``actions`` with a uniformly random legal action of each game (after reset or a step)."""
        if actions.shape[0] != self.n:
            raise ValueError(f"expected room for {self.n} actions, got {actions.shape[0]}")
        with nogil:
            kb_random_actions(&self.config, self.states, self.n, &self.rng, &actions[0])

    def seats(self):
        """The agent's seat in each game, as bytes."""
        return bytes(self.seat_of[i] for i in range(self.n))

    def position(self, int i):
        """Game ``i``'s current position (a kalah.Position)."""
        if not 0 <= i < self.n:
            raise IndexError(f"game {i} of {self.n}")
        return position_from_state(&self.config.rules, &self.states[i], self.variant)

    cdef _check(self, object array, int columns, str name):
        if array.shape[0] != self.n or array.shape[1] != columns:
            raise ValueError(f"{name} must have shape ({self.n}, {columns}), got {tuple(array.shape)[:2]}")
