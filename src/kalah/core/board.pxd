# Declarations of csrc/board.h for Cython modules of the core (cimport kalah.core.board).
#
# The same declarations serve both builds of the board (csrc/board.h): kalah_cell is a byte, or 16 bits
# under KALAH_BIG; Cython takes the width from C. The conversion helpers are inline, so that each
# extension compiles them for its own build (a big_search must never call the byte build's helpers).
from libc.stdint cimport uint8_t, uint64_t
from libc.string cimport memset

cdef extern from "csrc/board.h" nogil:
    ctypedef unsigned int kalah_cell

    enum:
        KALAH_MAX_PITS
        KALAH_MAX_CELLS
        KALAH_MAX_TOTAL
        KALAH_MAX_MOVES
        KALAH_SWAP
        KALAH_FIRST_MOVE
        KALAH_SWAP_AVAILABLE

    ctypedef struct kalah_rules:
        int pits
        int seeds
        int empty_capture
        int pie_rule
        int ring_len

    ctypedef struct kalah_state:
        kalah_cell cell[KALAH_MAX_CELLS]
        uint8_t to_move
        uint8_t flags

    ctypedef struct kalah_rng:
        uint64_t state

    ctypedef struct kalah_oracle:
        const void *db
        int max_seeds
        int (*probe)(const void *db, const kalah_rules *r, const kalah_state *s, int *value)

    void kalah_rules_init(kalah_rules *r, int pits, int seeds, int empty_capture, int pie_rule)
    void kalah_start(const kalah_rules *r, kalah_state *s)
    int kalah_legal_moves(const kalah_rules *r, const kalah_state *s, uint8_t *moves)
    int kalah_play(const kalah_rules *r, kalah_state *s, int move)
    int kalah_is_over(const kalah_rules *r, const kalah_state *s)
    int kalah_final_margin(const kalah_rules *r, const kalah_state *s)
    int kalah_side_seeds(const kalah_rules *r, const kalah_state *s, int player)
    void kalah_derive_flags(const kalah_rules *r, kalah_state *s)
    uint64_t kalah_rng_next(kalah_rng *g)
    int kalah_rng_below(kalah_rng *g, int n)
    int kalah_random_playout(const kalah_rules *r, kalah_state *s, kalah_rng *g)


cdef inline void beyond_this_build(str what):
    from kalah.rules import InvalidPositionError

    raise InvalidPositionError(
        f"{what} is beyond this build of the core ({KALAH_MAX_PITS} pits, {KALAH_MAX_TOTAL} seeds): use kalah.core.builds"
    )


cdef inline void rules_from_variant(kalah_rules *r, object variant):
    # A board beyond this build would write past its cells: kalah.core.builds never sends one here.
    if variant.pits > KALAH_MAX_PITS or variant.total_seeds > KALAH_MAX_TOTAL:
        beyond_this_build(variant.name)
    kalah_rules_init(r, variant.pits, variant.seeds, variant.empty_capture, variant.pie_rule)


cdef inline void state_from_position(const kalah_rules *r, kalah_state *s, object position):
    memset(s, 0, sizeof(kalah_state))
    cdef int i = 0, total = 0
    for count in position.cells:
        total += count
        s.cell[i] = count
        i += 1
    if total > KALAH_MAX_TOTAL:
        beyond_this_build(f"a board of {total} seeds")
    s.to_move = position.to_move
    kalah_derive_flags(r, s)


cdef object position_from_state(const kalah_rules *r, const kalah_state *s, object variant)
