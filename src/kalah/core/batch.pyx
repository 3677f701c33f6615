# cython: language_level=3, boundscheck=False, wraparound=False
"""Many games stepped together in compiled code (csrc/batch.h): the engine of kalah.rl's batched environment.

The caller owns the arrays a step writes (NumPy arrays or any writable buffer
of the right type and shape), given once to :meth:`BatchGames.bind`; a step
fills them in place, without the GIL, so that a learning loop pays for one
Python call per batch, not per game. The games pickle (and so copy) with
their boards and generators; a copy is bound to arrays of its own.
"""

from libc.stdint cimport int16_t, int32_t, int64_t, int8_t, uint8_t, uint64_t
from libc.stdlib cimport calloc, free
from libc.string cimport memcpy

from kalah.core.board cimport (kalah_rng, kalah_rules, kalah_state, position_from_state, rules_from_variant,
                               state_from_position)

from kalah.rules import IllegalMoveError

#: The opponents: compiled players (random, greedy, a fixed-depth search, UCT), the caller's moves
#: (a Python callable on a batch: step, then waiting and answer), or the agent itself.
OPPONENTS = ("random", "greedy", "search", "mcts", "caller", "self")
EVALUATIONS = {"store": 0, "seed": 1, "strong": 2}


cdef extern from "csrc/batch.h" nogil:
    enum:
        KO_RANDOM
        KO_GREEDY
        KO_SEARCH
        KO_MCTS
        KB_COMPILED
        KB_CALLER
        KB_SELF
        KB_SEAT_RANDOM
        KB_MAX_RESTARTS
        KB_OK
        KB_NO_MEMORY
        KB_NEVER_MOVES
        KB_NOT_WAITING
        KB_ILLEGAL_ANSWER
        KO_ANSWER_BITS

    ctypedef struct ko_answer:
        pass

    ctypedef struct ko_player:
        int kind
        int depth
        int eval
        long playouts
        ko_answer *answers

    ctypedef struct ko_board:
        kalah_rules rules

    ctypedef struct kb_config:
        kalah_rules rules
        int opponent
        ko_player player
        ko_board board
        int seat
        int margin_reward
        int same_step

    ctypedef struct kb_game:
        kalah_state s
        kalah_rng rng
        uint8_t seat

    ctypedef struct kb_output:
        uint8_t *obs
        int8_t *mask
        uint8_t *seat
        float *reward
        uint8_t *terminated
        uint8_t *final_obs
        uint8_t *final_seat
        int16_t *margin
        uint8_t *illegal

    int kb_reset(const kb_config *c, kb_game *games, int n, const uint8_t *which, kb_output *out)
    int kb_step(const kb_config *c, kb_game *games, int n, const int64_t *actions, kb_output *out, int64_t *moves)
    int kb_waiting(const kb_config *c, const kb_game *games, int n, int32_t *index, uint8_t *obs, int8_t *mask)
    int kb_answer(const kb_config *c, kb_game *games, int k, const int32_t *index, const int64_t *actions,
                  kb_output *out, int64_t *moves)
    void kb_random_actions(const kb_config *c, const kb_game *games, int n, kalah_rng *g, int64_t *actions)

cdef extern from "csrc/opponents.h" nogil:
    void ko_board_init(ko_board *b, const kalah_rules *r)
    int ko_choose(const ko_player *p, const ko_board *b, const kalah_state *s, kalah_rng *g)


cdef class BatchGames:
    """``n`` games of ``variant``, each a learning agent at a seat against an opponent.

    ``opponent`` is one of :data:`OPPONENTS`: "random" (uniform legal moves),
    "greedy" (the move that fills its store most, an extra turn preferred,
    ties at random), "search" (the move of a ``depth``-move search with
    ``evaluation``, as every exact algorithm of the engine chooses it), "mcts"
    (UCT with ``playouts``), "caller" (the caller answers, see
    :meth:`waiting`) or "self" (self-play: both seats are the agent, the
    observation is the mover's). ``seat`` is 0, 1 or "random" (drawn at each
    game's start); ``margin_reward`` makes the reward the final margin in
    seeds instead of +1, 0, -1; ``same_step`` restarts a finished game in the
    step that ended it (else in the next step).
    """

    cdef kb_config config
    cdef kb_game *games
    cdef kalah_rng sampler
    cdef kb_output out
    cdef object bound
    cdef readonly int n
    cdef readonly object variant
    cdef readonly str opponent
    cdef readonly object seat_option
    cdef readonly dict settings
    cdef int obs_size, actions

    def __cinit__(self, int n, variant, str opponent="random", seat=0, bint margin_reward=False,
                  bint same_step=True, int depth=1, str evaluation="strong", long playouts=1000):
        if n < 1:
            raise ValueError(f"n must be at least 1, got {n}")
        if opponent not in OPPONENTS:
            raise ValueError(f"opponent must be one of {', '.join(OPPONENTS)}, got {opponent!r}")
        if seat not in (0, 1, "random") or isinstance(seat, bool):
            raise ValueError(f"seat must be 0, 1 or 'random', got {seat!r}")
        if evaluation not in EVALUATIONS:
            raise ValueError(f"evaluation must be one of {', '.join(EVALUATIONS)}, got {evaluation!r}")
        if opponent == "search" and not 1 <= depth <= 30:
            raise ValueError(f"depth must be from 1 to 30, got {depth}")
        if opponent == "mcts" and not 1 <= playouts <= 10_000_000:
            raise ValueError(f"playouts must be from 1 to 10,000,000, got {playouts}")
        self.n = n
        self.variant = variant
        self.opponent = opponent
        self.seat_option = seat
        self.settings = dict(margin_reward=bool(margin_reward), same_step=bool(same_step), depth=depth,
                             evaluation=evaluation, playouts=playouts)
        rules_from_variant(&self.config.rules, variant)
        ko_board_init(&self.config.board, &self.config.rules)
        self.config.opponent = KB_SELF if opponent == "self" else KB_CALLER if opponent == "caller" else KB_COMPILED
        self.config.player.kind = {"random": KO_RANDOM, "greedy": KO_GREEDY, "search": KO_SEARCH,
                                   "mcts": KO_MCTS}.get(opponent, KO_RANDOM)
        self.config.player.depth = depth
        self.config.player.eval = EVALUATIONS[evaluation]
        self.config.player.playouts = playouts
        self.config.player.answers = NULL
        if opponent == "search":
            self.config.player.answers = <ko_answer *>calloc(1 << KO_ANSWER_BITS, sizeof(ko_answer))
            if self.config.player.answers == NULL:
                raise MemoryError()
        self.config.seat = KB_SEAT_RANDOM if seat == "random" else seat
        self.config.margin_reward = margin_reward
        self.config.same_step = same_step
        self.obs_size = 2 * variant.pits + 2
        self.actions = variant.pits + (1 if variant.pie_rule else 0)
        self.games = <kb_game *>calloc(n, sizeof(kb_game))
        if self.games == NULL:
            raise MemoryError()
        cdef int i
        for i in range(n):
            self.games[i].s.to_move = 2  # not started: neither seat moves until reset
        self.sampler.state = 0

    def __dealloc__(self):
        free(self.games)
        free(self.config.player.answers)

    def __reduce__(self):
        cdef bytes state = (<char *>self.games)[:self.n * sizeof(kb_game)]
        return (_restore, (self.n, self.variant, self.opponent, self.seat_option, self.settings, state,
                           self.sampler.state))

    def _load(self, bytes state, uint64_t sampler):
        if len(state) != self.n * sizeof(kb_game):
            raise ValueError("the saved games do not fit this batch")
        memcpy(self.games, <const char *>state, len(state))
        self.sampler.state = sampler

    def bind(self, uint8_t[:, ::1] obs, int8_t[:, ::1] mask, uint8_t[::1] seat, float[::1] reward,
             uint8_t[::1] terminated, uint8_t[:, ::1] final_obs, uint8_t[::1] final_seat, int16_t[::1] margin,
             uint8_t[::1] illegal):
        """The arrays the games write into: a row per game (observations of ``2m + 2`` bytes, masks of one
        byte per action), kept until bound again."""
        self._check(obs, self.obs_size, "obs")
        self._check(final_obs, self.obs_size, "final_obs")
        self._check(mask, self.actions, "mask")
        for name, column in (("seat", seat), ("reward", reward), ("terminated", terminated),
                             ("final_seat", final_seat), ("margin", margin), ("illegal", illegal)):
            if column.shape[0] != self.n:
                raise ValueError(f"{name} must have {self.n} rows")
        self.bound = (obs, mask, seat, reward, terminated, final_obs, final_seat, margin, illegal)
        self.out.obs = &obs[0, 0]
        self.out.mask = &mask[0, 0]
        self.out.seat = &seat[0]
        self.out.reward = &reward[0]
        self.out.terminated = &terminated[0]
        self.out.final_obs = &final_obs[0, 0]
        self.out.final_seat = &final_seat[0]
        self.out.margin = &margin[0]
        self.out.illegal = &illegal[0]

    def seed(self, const uint64_t[::1] seeds, const uint8_t[::1] which=None):
        """Restart the generators of the games (``which``: only where it is nonzero) from ``seeds``, one per game."""
        if seeds.shape[0] != self.n or (which is not None and which.shape[0] != self.n):
            raise ValueError(f"expected {self.n} seeds")
        cdef int i
        for i in range(self.n):
            if which is None or which[i]:
                self.games[i].rng.state = seeds[i]

    def seed_sampler(self, uint64_t seed):
        """Restart the generator of :meth:`random_actions`."""
        self.sampler.state = seed

    def reset(self, const uint8_t[::1] which=None):
        """Start the games (``which``: only where it is nonzero) and write their first rows; games whose
        opponent is the caller's may then wait for it (:meth:`waiting`)."""
        self._check_bound()
        if which is not None and which.shape[0] != self.n:
            raise ValueError(f"which must have {self.n} rows")
        cdef int status
        cdef const uint8_t *chosen = &which[0] if which is not None else NULL
        with nogil:
            status = kb_reset(&self.config, self.games, self.n, chosen, &self.out)
        self._raise(status)

    def step(self, const int64_t[::1] actions):
        """One action per game (see csrc/batch.h); returns the number of moves played, opponents' included."""
        self._check_bound()
        if actions.shape[0] != self.n:
            raise ValueError(f"expected {self.n} actions, got {actions.shape[0]}")
        cdef int64_t moves = 0
        cdef int status
        with nogil:
            status = kb_step(&self.config, self.games, self.n, &actions[0], &self.out, &moves)
        self._raise(status)
        return moves

    def waiting(self, int32_t[::1] index, uint8_t[:, ::1] obs, int8_t[:, ::1] mask):
        """The games where the caller's opponent is to move: fills their indices, and their observations and
        masks from the opponent's seat, in the first rows; returns how many."""
        if index.shape[0] < self.n:
            raise ValueError(f"index needs room for {self.n} games")
        self._check(obs, self.obs_size, "obs")
        self._check(mask, self.actions, "mask")
        cdef int k
        with nogil:
            k = kb_waiting(&self.config, self.games, self.n, &index[0], &obs[0, 0], &mask[0, 0])
        return k

    def answer(self, const int32_t[::1] index, const int64_t[::1] actions):
        """Play the caller's action in each game of ``index`` (as :meth:`waiting` listed them); returns the
        moves played. An illegal action raises IllegalMoveError and changes no game."""
        self._check_bound()
        cdef int k = index.shape[0]
        if actions.shape[0] != k:
            raise ValueError(f"expected {k} actions, got {actions.shape[0]}")
        for i in range(k):
            if not 0 <= index[i] < self.n:
                raise IndexError(f"game {index[i]} of {self.n}")
        cdef int64_t moves = 0
        cdef int status = KB_OK
        if k:
            with nogil:
                status = kb_answer(&self.config, self.games, k, &index[0], &actions[0], &self.out, &moves)
        self._raise(status)
        return moves

    def random_actions(self, int64_t[::1] actions):
        """Fill ``actions`` with a uniformly random legal action of each game (between steps)."""
        if actions.shape[0] != self.n:
            raise ValueError(f"expected room for {self.n} actions, got {actions.shape[0]}")
        with nogil:
            kb_random_actions(&self.config, self.games, self.n, &self.sampler, &actions[0])

    def seats(self):
        """The agent's seat in each game (self-play: the mover's), as bytes."""
        return bytes(self.games[i].seat for i in range(self.n))

    def position(self, int i):
        """Game ``i``'s current position (a kalah.Position)."""
        if not 0 <= i < self.n:
            raise IndexError(f"game {i} of {self.n}")
        if self.games[i].s.to_move > 1:
            raise ValueError("the games have not started: call reset()")
        return position_from_state(&self.config.rules, &self.games[i].s, self.variant)

    def opponent_move(self, position, uint64_t seed=0):
        """The move the compiled opponent chooses in ``position`` with its generator at ``seed`` (UCT takes
        its first number as the search's seed)."""
        if self.config.opponent != KB_COMPILED:
            raise ValueError(f"the opponent {self.opponent!r} is not a compiled player")
        if position.variant != self.variant or position.is_over:
            raise ValueError("a position of this variant with a move to make is needed")
        cdef kalah_state s
        cdef kalah_rng g
        cdef int move
        g.state = seed
        state_from_position(&self.config.rules, &s, position)
        with nogil:
            move = ko_choose(&self.config.player, &self.config.board, &s, &g)
        if move < 0:
            raise MemoryError("no memory for the search tree")
        return "swap" if move == 255 else move

    cdef _check(self, object array, int columns, str name):
        if array.shape[0] != self.n or array.shape[1] != columns:
            raise ValueError(f"{name} must have shape ({self.n}, {columns}), got {tuple(array.shape)[:2]}")

    cdef _check_bound(self):
        if self.bound is None:
            raise ValueError("bind() the output arrays first")

    cdef _raise(self, int status):
        if status == KB_OK:
            return
        if status == KB_NO_MEMORY:
            raise MemoryError("no memory for the opponent's search tree")
        if status == KB_NEVER_MOVES:
            raise ValueError(
                f"{KB_MAX_RESTARTS} games in a row ended before the agent's first decision: in "
                f"{self.variant.name} the agent's seat never gets a move against this opponent"
            )
        if status == KB_ILLEGAL_ANSWER:
            raise IllegalMoveError("the opponent's actions include an illegal one (see the action masks)")
        raise ValueError("a game answered is not waiting for the opponent")


def _restore(n, variant, opponent, seat, settings, state, sampler):
    games = BatchGames(n, variant, opponent, seat, **settings)
    games._load(state, sampler)
    return games
