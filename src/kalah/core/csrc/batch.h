/* Many games of one variant stepped together for learning agents (kalah.rl's batched environment).
 *
 * Each game has a learning agent and an opponent. The opponent is a compiled player
 * (opponents.h), moving inside the step: after the agent's action it plays until the agent is
 * to move again or the game is over, so every step ends at a decision of the agent. Or it is
 * the caller's (a Python callable on a batch): the step then leaves the games where it is to
 * move waiting, kb_waiting lists them and kb_answer plays the caller's moves. Or it is the
 * agent itself (self-play): both seats are the learner, one move a step, and the observation
 * is always the mover's.
 *
 * A finished game starts again in the same step (Gymnasium's "same-step" autoreset: the step
 * reports its reward and final observation and leaves the new game's first observation in
 * place) or at the next step (Gymnasium's "next-step": the step shows the final observation,
 * and the next step's action is ignored while a new game starts). A game never starts
 * finished: one that ends before the agent's first decision (the opponent moving first in a
 * tiny variant) is started again.
 *
 * Observations and actions are those of kalah/players/encoding.py: the board from the
 * agent's seat (its pits and store first), action i sows pit i and action m is the swap of
 * the pie rule. Every game draws its randomness (its seat, the opponent's choices) from its
 * own generator, so that a game's course depends only on its seed and the agent's actions.
 */
#ifndef KALAH_BATCH_H
#define KALAH_BATCH_H

#include <stdint.h>

#include "board.h"
#include "opponents.h"

enum { KB_COMPILED = 0, KB_CALLER = 1, KB_SELF = 2 }; /* who the opponent is */
enum { KB_SEAT_RANDOM = 2 };                         /* seat option: 0, 1, or drawn at each game's start */
/* Starts of one game in a row that may end before the agent's first decision, then the step fails:
 * only a variant and opponent in which the agent's seat never gets a move come near it. */
#define KB_MAX_RESTARTS 64

typedef struct {
    kalah_rules rules;
    int opponent;      /* KB_COMPILED, KB_CALLER or KB_SELF */
    ko_player player;  /* KB_COMPILED: which */
    ko_board board;    /* the rules again, with the lanes of the compiled searches (ko_board_init) */
    int seat;          /* 0, 1 or KB_SEAT_RANDOM (unused in self-play) */
    int margin_reward; /* reward in seeds instead of +1 / 0 / -1 */
    int same_step;     /* autoreset in the same step (1) or at the next (0) */
} kb_config;

typedef struct {
    kalah_state s;
    kalah_rng rng;
    uint8_t seat;   /* the agent's seat (self-play: the mover's, kept up to date) */
    uint8_t fresh;  /* the agent has not moved in this game yet */
    uint8_t ended;  /* next-step autoreset: the game ended, the next step starts a new one */
    uint8_t restarts; /* starts in a row that ended before the agent's first decision */
} kb_game;

/* Where a step writes, one row per game (obs: 2m+2 bytes, mask: m or m+1 bytes). */
typedef struct {
    uint8_t *obs;
    int8_t *mask;
    uint8_t *seat;      /* the seat whose observation `obs` is (the agent's; self-play: the mover's) */
    float *reward;
    uint8_t *terminated;
    uint8_t *final_obs; /* same-step: the observation of a game that just ended (rows of others untouched) */
    uint8_t *final_seat; /* same-step: the seat whose final observation that is (the last action's) */
    int16_t *margin;    /* the final margin, from the seat of the last action, of a game that just ended */
    uint8_t *illegal;   /* 1 where the action was illegal (the game is then lost) */
} kb_output;

/* Errors of the functions below (0: fine). */
enum { KB_OK = 0, KB_NO_MEMORY = -1, KB_NEVER_MOVES = -2, KB_NOT_WAITING = -3, KB_ILLEGAL_ANSWER = -4 };

/* Start the games whose `which` is nonzero (NULL: all) and write their first observations (a game
 * waiting for the caller's opponent gets its row once answered). */
int kb_reset(const kb_config *c, kb_game *games, int n, const uint8_t *which, kb_output *out);

/* One action per game; `*moves` counts the moves played (the agents' and the opponents'). */
int kb_step(const kb_config *c, kb_game *games, int n, const int64_t *actions, kb_output *out, int64_t *moves);

/* The games waiting for the caller's opponent: their indices, and each one's observation and action
 * mask from the opponent's seat. Returns how many. */
int kb_waiting(const kb_config *c, const kb_game *games, int n, int32_t *index, uint8_t *obs, int8_t *mask);

/* Play the caller's action in each game of `index` (all waiting); the games that reach the agent's
 * decision get their rows in `out`, the others wait again. */
int kb_answer(const kb_config *c, kb_game *games, int k, const int32_t *index, const int64_t *actions, kb_output *out,
              int64_t *moves);

/* A uniformly random legal action for each game, from `g` (the games are at the agent's decision). */
void kb_random_actions(const kb_config *c, const kb_game *games, int n, kalah_rng *g, int64_t *actions);

/* The observation and action mask of one game from `seat` (the mask is all 0 unless `seat` is to move). */
void kb_observe(const kb_config *c, const kalah_state *s, int seat, uint8_t *restrict obs, int8_t *restrict mask);

#endif
