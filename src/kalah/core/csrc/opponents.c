/* The compiled opponents of opponents.h. */
#include "opponents.h"

#include "evaluate.h"
#include "mcts.h"
#include "moves.h"

#define KO_INF 1000000
/* The evaluation and the ordering below read a row as one little-endian word of byte cells (board.h's
 * kalah_side_word); elsewhere they fall back to evaluate.h and the pits in order. */
#if !defined(KALAH_BIG) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define KO_ROW_WORDS 1
#else
#define KO_ROW_WORDS 0
#endif

int ko_random_move(const ko_board *b, const kalah_state *s, kalah_rng *g)
{
    const kalah_rules *r = &b->rules;
#if KO_ROW_WORDS
    /* The mover's non-empty pits as the bits of a byte (their top bits gathered by one multiplication),
     * then the k-th of them from the board's table: the k-th legal move in the order of kalah_legal_moves. */
    const uint64_t nonempty = ~ko_zero_bytes(kalah_side_word(r, s, s->to_move)) & b->lanes;
    const int set = (int)(((nonempty >> 7) * 0x0102040810204080ull) >> 56);
    const int pits = b->count[set], n = pits + ((s->flags & KALAH_SWAP_AVAILABLE) != 0);
    KALAH_ASSERT(n > 0);
    const int k = kalah_rng_below(g, n);
    return k == pits ? KALAH_SWAP : b->nth[set][k];
#else
    /* Branch-free, as kalah_random_playout: which pits are empty is unpredictable (a third faster). */
    uint8_t moves[KALAH_MAX_MOVES];
    const kalah_cell *own = s->cell + kalah_base(r, s->to_move);
    int n = 0;
    for (int i = 0; i < r->pits; i++) {
        moves[n] = (uint8_t)i;
        n += own[i] != 0;
    }
    if (s->flags & KALAH_SWAP_AVAILABLE) moves[n++] = KALAH_SWAP;
    KALAH_ASSERT(n > 0);
    return moves[kalah_rng_below(g, n)];
#endif
}

static int ko_greedy_move(const kalah_rules *r, const kalah_state *s, kalah_rng *g)
{
    uint8_t moves[KALAH_MAX_MOVES], best[KALAH_MAX_MOVES];
    int n = kalah_legal_moves(r, s, moves), count = 0, best_score = -1000;
    const int me = s->to_move;
    for (int i = 0; i < n; i++) {
        kalah_state next = *s;
        int extra = kalah_play(r, &next, moves[i]);
        /* the swap exchanges the rows: "my store" is wherever my seeds went */
        int score = 2 * next.cell[kalah_store_index(r, me)] + extra;
        if (score > best_score) {
            best_score = score;
            count = 0;
        }
        if (score == best_score) best[count++] = moves[i];
    }
    return best[kalah_rng_below(g, count)];
}

void ko_board_init(ko_board *b, const kalah_rules *r)
{
    const int m = r->pits, len = r->ring_len;
    b->rules = *r;
    for (int set = 0; set < 256; set++) {
        b->count[set] = 0;
        for (int i = 0; i < 8; i++) b->nth[set][i] = 0;
        for (int i = 0; i < 8; i++)
            if (set >> i & 1) b->nth[set][b->count[set]++] = (uint8_t)i;
    }
    b->lanes = b->extra = 0;
    for (int i = 0; i < m; i++) {
        b->lanes |= 0x80ull << (8 * i);
        b->extra |= (uint64_t)(m - i) << (8 * i);
    }
    for (int p = 0; p < m; p++) {
        b->near[p] = b->far[p] = b->near_lanes[p] = b->far_lanes[p] = 0;
        for (int i = 0; i < m; i++) {
            if (i < p) {
                b->near[p] |= (uint64_t)(p - i) << (8 * i);
                b->near_lanes[p] |= 0x80ull << (8 * i);
            } else if (i > p) {
                b->far[p] |= (uint64_t)(p - i + len) << (8 * i);
                b->far_lanes[p] |= 0x80ull << (8 * i);
            }
        }
    }
}

/* The largest capture the row `row` (its pits, a byte each, in `word`) can make at once against `other`,
 * as kalah_captures sees them: for each empty pit, whether a pit holds just the seeds that end there
 * (a lap puts one more seed into the facing pit). */
static inline int ko_best_capture(const ko_board *b, uint64_t word, const kalah_cell *other)
{
    const int m = b->rules.pits;
    int best = 0;
    for (uint64_t empty = ko_zero_bytes(word) & b->lanes; empty; empty &= empty - 1) {
        const int p = __builtin_ctzll(empty) >> 3;
        const uint64_t near = ko_zero_bytes(word ^ b->near[p]) & b->near_lanes[p];
        const uint64_t far = ko_zero_bytes(word ^ b->far[p]) & b->far_lanes[p];
        if (!(near | far)) continue;
        const int facing = other[m - 1 - p] + (far != 0);
        if ((facing || b->rules.empty_capture) && facing + 1 > best) best = facing + 1;
    }
    return best;
}

/* The moves of a row that end in its store (the evaluation's extra-turn chances). */
static inline int ko_extra_turns(const ko_board *b, uint64_t word, const kalah_cell *row)
{
    const int len = b->rules.ring_len;
    /* the marks counted by one multiplication (no byte sum reaches 256) */
    int count = (int)((((ko_zero_bytes(word ^ b->extra) & b->lanes) >> 7) * 0x0101010101010101ull) >> 56);
    /* pits of a lap or more (2m + 1 seeds, or 128: the top bit) end where the rest of a lap does */
    const uint64_t lapping = ((((word & KO_LOW7) + (0x80 - len) * 0x0101010101010101ull) | word) & b->lanes);
    for (uint64_t big = lapping; big; big &= big - 1) {
        const int i = __builtin_ctzll(big) >> 3;
        count += row[i] % len == b->rules.pits - i;
    }
    return count;
}

/* The engine's move ordering (order.h) without a table move: extra turns first (the pit nearest the
 * store first), then captures by size within the mover's row, then the other pits from the store
 * backwards, the swap last. Only the node count depends on it, never a value. The row is read as one
 * word, as the evaluation reads it. */
static void ko_order(const ko_board *b, const kalah_state *s, uint8_t *moves, int n)
{
    if (n < 2 || !KO_ROW_WORDS) return;
    const kalah_rules *r = &b->rules;
    const int m = r->pits;
    const uint64_t word = kalah_side_word(r, s, s->to_move);
    const kalah_cell *opp = s->cell + kalah_base(r, 1 - s->to_move);
    int key[KALAH_MAX_PITS + 1];
    for (int i = 0; i < m; i++) key[i] = i;
    key[m] = 0; /* the swap */
    for (uint64_t empty = ko_zero_bytes(word) & b->lanes; empty; empty &= empty - 1) {
        const int p = __builtin_ctzll(empty) >> 3;
        uint64_t near = ko_zero_bytes(word ^ b->near[p]) & b->near_lanes[p];
        if (!near) continue;
        const int facing = opp[m - 1 - p];
        if (!facing && !r->empty_capture) continue;
        for (; near; near &= near - 1) key[__builtin_ctzll(near) >> 3] = 99 + facing + 1;
    }
    if (!(s->flags & KALAH_FIRST_MOVE))
        for (uint64_t extra = ko_zero_bytes(word ^ b->extra) & b->lanes; extra; extra &= extra - 1) {
            const int i = __builtin_ctzll(extra) >> 3;
            key[i] = 1000 + i;
        }
    /* The likeliest cut first, the others as they come: a full sort cost more than it saved. */
    int first = 0, top = -1;
    for (int k = 0; k < n; k++) {
        const int score = key[moves[k] == KALAH_SWAP ? m : moves[k]];
        if (score > top) {
            top = score;
            first = k;
        }
    }
    const uint8_t chosen = moves[first];
    for (int k = first; k > 0; k--) moves[k] = moves[k - 1];
    moves[0] = chosen;
}

/* kalah_eval_strong (evaluate.h), the same value sooner: the searches of the batched opponents
 * spend most of their time in it, and a row read as one word answers for all its pits at once. */
static inline __attribute__((always_inline)) int ko_eval_strong(const ko_board *b, const kalah_state *s, uint64_t mine,
                                                                uint64_t theirs)
{
    const kalah_rules *r = &b->rules;
    const int m = r->pits, me = s->to_move;
    const kalah_cell *own = s->cell + kalah_base(r, me), *opp = s->cell + kalah_base(r, 1 - me);
    const int sown = (int)((mine * 0x0101010101010101ull) >> 56) - (int)((theirs * 0x0101010101010101ull) >> 56);
    int value = 4 * (own[m] - opp[m]) + sown + 3 * ko_extra_turns(b, mine, own);
    value += 3 * ko_best_capture(b, mine, opp) - 2 * ko_best_capture(b, theirs, own);
    value *= KALAH_UNIT / 4;
    KALAH_ASSERT(value == kalah_eval_strong(r, s));
    return value;
}

/* A leaf's value for the side to move: exact when the game is over, else the evaluation (each row
 * read once for both). */
static inline __attribute__((always_inline)) int ko_leaf(const ko_board *b, int eval, const kalah_state *s)
{
    const kalah_rules *r = &b->rules;
    const uint64_t mine = kalah_side_word(r, s, s->to_move), theirs = kalah_side_word(r, s, 1 - s->to_move);
    if (!mine || !theirs) return kalah_eval_final(r, s);
    return eval == KALAH_EVAL_STRONG && KO_ROW_WORDS ? ko_eval_strong(b, s, mine, theirs) : kalah_evaluate(eval, r, s);
}

/* Fail-soft alpha-beta (Knuth and Moore, 1975) in negamax form; depth counts moves, and a move
 * that keeps the mover (an extra turn) is not negated, as in search.c. The last ply is a loop of
 * its own: its children are leaves, and a call for each cost a fifth of the time. */
static int ko_alphabeta(const ko_board *b, int eval, const kalah_state *s, int depth, int alpha, int beta)
{
    const kalah_rules *r = &b->rules;
    if (kalah_is_over(r, s)) return kalah_eval_final(r, s);
    if (depth == 0) return ko_leaf(b, eval, s);
    uint8_t moves[KALAH_MAX_MOVES];
    int n = kalah_legal_moves(r, s, moves), best = -KO_INF;
    ko_order(b, s, moves, n);
    for (int k = 0; k < n; k++) {
        kalah_state child = *s;
        kalah_play(r, &child, moves[k]);
        int value;
        if (depth == 1)
            value = child.to_move == s->to_move ? ko_leaf(b, eval, &child) : -ko_leaf(b, eval, &child);
        else
            value = child.to_move == s->to_move ? ko_alphabeta(b, eval, &child, depth - 1, alpha, beta)
                                                : -ko_alphabeta(b, eval, &child, depth - 1, -beta, -alpha);
        if (value > best) {
            best = value;
            if (value > alpha) alpha = value;
            if (alpha >= beta) break;
        }
    }
    return best;
}

int ko_search(const ko_board *b, int eval, const kalah_state *s, int depth, int *best_move)
{
    const kalah_rules *r = &b->rules;
    uint8_t moves[KALAH_MAX_MOVES];
    int n = kalah_legal_moves(r, s, moves), best = -KO_INF, best_code = KALAH_SWAP + 1;
    KALAH_ASSERT(n > 0 && depth >= 1);
    ko_order(b, s, moves, n);
    for (int k = 0; k < n; k++) {
        const int code = moves[k];
        /* A move of a lower code than the best so far must be resolved exactly at a tie, so its
         * window starts a unit lower; a higher code need only be told apart from better. */
        const int alpha = code < best_code ? best - 1 : best;
        kalah_state child = *s;
        kalah_play(r, &child, code);
        int value = child.to_move == s->to_move ? ko_alphabeta(b, eval, &child, depth - 1, alpha, KO_INF)
                                                : -ko_alphabeta(b, eval, &child, depth - 1, -KO_INF, -alpha);
        if (value > best || (value == best && code < best_code)) {
            best = value;
            best_code = code;
        }
    }
    *best_move = best_code;
    return best;
}

/* kalah.search's own limits for UCT (search.pyx): the tree never fills below this many nodes, so a
 * tree sized by the playouts is never full where the Python face's is not, and the moves agree. */
#define KO_MCTS_MAX_NODES   2000000L
#define KO_MCTS_EXPLORATION 1.4142135623730951

int ko_choose(const ko_player *p, const ko_board *b, const kalah_state *s, kalah_rng *g)
{
    const kalah_rules *r = &b->rules;
    switch (p->kind) {
    case KO_GREEDY:
        return ko_greedy_move(r, s, g);
    case KO_SEARCH: {
        int move;
        ko_answer *answer = NULL;
        if (p->answers) {
            uint64_t words[3] = {0, 0, 0};
            memcpy(words, s, sizeof *s);
            const uint64_t h = kalah_hash2(words[0], words[1] ^ kalah_mix64(words[2]), KALAH_GOLDEN);
            answer = &p->answers[h >> (64 - KO_ANSWER_BITS)];
            /* a finished board (the zeros of an empty slot) is never searched */
            if (memcmp(&answer->state, s, sizeof *s) == 0) return answer->move;
        }
        ko_search(b, p->eval, s, p->depth, &move);
        if (answer) {
            answer->state = *s;
            answer->move = (uint8_t)move;
        }
        return move;
    }
    case KO_MCTS: {
        ks_mcts_result out;
        long nodes = p->playouts * KALAH_MAX_MOVES + 16; /* each playout expands at most one node */
        if (nodes > KO_MCTS_MAX_NODES) nodes = KO_MCTS_MAX_NODES;
        if (ks_mcts(r, s, p->playouts, 0.0, KO_MCTS_EXPLORATION, kalah_rng_next(g), nodes, &out) != 0) return -1;
        return out.best_move;
    }
    default:
        return ko_random_move(b, s, g);
    }
}
