# cython: language_level=3, boundscheck=False, wraparound=False
"""The compiled board: the rules of csrc/board.h with a Python face.

``kalah.rules`` is the reference; this module must agree with it exactly,
which tests/test_core_agreement.py checks on hundreds of thousands of moves.
Other compiled modules (search, solver) cimport the helpers declared in
board.pxd to convert between Python positions and flat states.
"""

from kalah.rules import SWAP, IllegalMoveError, Position, Variant

#: The most pits a side and seeds on a board of this build (csrc/board.h): 8 and 255 in bytes, 12 and
#: 65,535 in the big build's 16-bit cells.
MAX_PITS = KALAH_MAX_PITS
MAX_TOTAL = KALAH_MAX_TOTAL


cdef object position_from_state(const kalah_rules *r, const kalah_state *s, object variant):
    cells = [s.cell[i] for i in range(2 * (r.pits + 1))]
    return Position.from_cells(cells, s.to_move, variant)


def move_code(move):
    """The compiled code of a move: the pit index, or KALAH_SWAP for the swap."""
    return KALAH_SWAP if move == SWAP else move


def move_from_code(int code):
    """The move of a compiled code: ``kalah.SWAP`` for KALAH_SWAP, else the pit index."""
    return SWAP if code == KALAH_SWAP else code


cdef class CoreGame:
    """A mutable game on the compiled board (for tests, playouts and tools).

    It trusts nothing: ``play`` checks legality, so a wrong move raises
    IllegalMoveError instead of corrupting the board.
    """

    cdef kalah_rules rules
    cdef kalah_state state
    cdef readonly object variant

    def __init__(self, position=None, variant=None):
        if position is None:
            position = Position.start(variant)
        self.variant = position.variant
        rules_from_variant(&self.rules, self.variant)
        state_from_position(&self.rules, &self.state, position)

    def legal_moves(self):
        cdef uint8_t moves[KALAH_MAX_MOVES]
        cdef int n = kalah_legal_moves(&self.rules, &self.state, moves)
        return [move_from_code(moves[i]) for i in range(n)]

    def play(self, move):
        """Play ``move`` in place; returns True when it earned an extra turn."""
        if move not in self.legal_moves():
            raise IllegalMoveError(f"{move!r} is not legal here")
        return bool(kalah_play(&self.rules, &self.state, move_code(move)))

    @property
    def cells(self):
        return tuple(self.state.cell[i] for i in range(2 * (self.rules.pits + 1)))

    @property
    def to_move(self):
        return self.state.to_move

    @property
    def is_over(self):
        return bool(kalah_is_over(&self.rules, &self.state))

    def position(self):
        return position_from_state(&self.rules, &self.state, self.variant)

    def copy(self):
        return CoreGame(self.position())

    def __reduce__(self):
        # pickle and copy.deepcopy: the position says everything (the pie rule's flags follow from it)
        return (CoreGame, (self.position(),))


def random_playouts(position, long games, unsigned long long seed=0):
    """Play ``games`` uniformly random games from ``position`` in compiled code.

    Returns ``(wins0, draws, wins1)``; the same seed gives the same games.
    """
    cdef kalah_rules r
    cdef kalah_state start, s
    cdef kalah_rng g
    cdef long wins0 = 0, draws = 0, wins1 = 0, i
    cdef int margin
    rules_from_variant(&r, position.variant)
    state_from_position(&r, &start, position)
    g.state = seed
    with nogil:
        for i in range(games):
            s = start
            margin = kalah_random_playout(&r, &s, &g)
            if margin > 0:
                wins0 += 1
            elif margin < 0:
                wins1 += 1
            else:
                draws += 1
    return wins0, draws, wins1
