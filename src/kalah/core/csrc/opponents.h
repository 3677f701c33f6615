/* The compiled opponents of the batched games (batch.h): one decision of a built-in player.
 *
 * - random: a uniformly random legal move;
 * - greedy: the move that leaves the most seeds in its own store right after it (an extra turn
 *   counts half a seed more, so that of two equal moves it keeps the move), ties at random;
 * - search: the move of a depth-limited negamax search (alpha-beta, no table) with one of the
 *   evaluations of evaluate.h. Depth counts moves and the root's ties go to the lowest move
 *   code, as in search.h: every one of the engine's exact algorithms at that depth and
 *   evaluation returns the same values and so chooses the same move (the players
 *   `alphabeta:depth=D`, `pvs:depth=D`, ... without an endgame database);
 * - mcts: UCT with random playouts (mcts.c), the move of `mcts:playouts=P` given the same seed.
 *
 * Randomness comes from the caller's generator, one per game, so that a game's course depends
 * only on its own seed and the agent's actions.
 */
#ifndef KALAH_OPPONENTS_H
#define KALAH_OPPONENTS_H

#include "board.h"

enum { KO_RANDOM = 0, KO_GREEDY = 1, KO_SEARCH = 2, KO_MCTS = 3 };

#define KO_LOW7 0x7F7F7F7F7F7F7F7Full
/* 0x80 in every byte of x that is 0 (exact: no byte carries into the next). */
static inline uint64_t ko_zero_bytes(uint64_t x)
{ return ~(((x & KO_LOW7) + KO_LOW7) | x | KO_LOW7); }

/* The rules, and what sowing each pit does by the seeds in it, for a whole row at once (a pit a byte of a
 * 64-bit word): the searches' evaluation and move ordering ask it of every pit of every position. */
typedef struct {
    kalah_rules rules;
    uint64_t lanes;                /* 0x80 in the byte of every pit */
    uint64_t extra;                /* byte i: m - i, the seeds that end in the store */
    uint64_t near[KALAH_MAX_PITS]; /* for pit p: byte i < p holds p - i, the seeds that end in p */
    uint64_t far[KALAH_MAX_PITS];  /* byte i > p: p - i + 2m + 1, the seeds that end in p after a lap */
    uint64_t near_lanes[KALAH_MAX_PITS], far_lanes[KALAH_MAX_PITS];
    /* For a set of non-empty pits (bit i: pit i), their number and the k-th of them: a random move with
     * no loop whose length the draw decides (its mispredicted branches cost as much as the rest). */
    uint8_t count[256], nth[256][8];
} ko_board;

void ko_board_init(ko_board *b, const kalah_rules *r);

/* A search's answer to a position, remembered: the games of a batch meet the same positions often (the
 * openings above all: with random learner moves against pvs:depth=2 in Kalah(6,4), 40-50% of the
 * searches), and a search is the same function of the position every time. Whole positions are
 * compared, so an answer is never another position's. */
typedef struct {
    kalah_state state;
    uint8_t move;
} ko_answer;
#define KO_ANSWER_BITS 16 /* 65,536 answers, 1.4 MB: twice the hits of 16,384, and more gained less */

typedef struct {
    int kind;           /* KO_* */
    int depth;          /* KO_SEARCH: moves searched ahead (1 or more) */
    int eval;           /* KO_SEARCH: KALAH_EVAL_* */
    long playouts;      /* KO_MCTS */
    ko_answer *answers; /* KO_SEARCH: 1 << KO_ANSWER_BITS remembered answers, zeroed at first; NULL: none */
} ko_player;

/* The player's move in `s` (the game is not over); -1 when the tree of MCTS found no memory. */
int ko_choose(const ko_player *p, const ko_board *b, const kalah_state *s, kalah_rng *g);

/* A uniformly random legal move of the side to move (the game is not over). */
int ko_random_move(const ko_board *b, const kalah_state *s, kalah_rng *g);

/* The search's value of `s` for the side to move (KALAH_UNIT a seed) and its best move. */
int ko_search(const ko_board *b, int eval, const kalah_state *s, int depth, int *best_move);

#endif
