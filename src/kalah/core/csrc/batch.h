/* Many games of one variant stepped together for learning agents (kalah.rl's batched environment).
 *
 * Each game has a learning agent at a seat and a built-in opponent that moves
 * inside the step: after the agent's action the opponent plays until the agent
 * is to move again or the game is over, so every step ends at a decision of
 * the agent. A finished game starts again in the same step (Gymnasium's
 * "same-step" autoreset): the step reports its reward and final observation
 * and leaves the new game's first observation in place.
 *
 * Observations and actions are those of kalah/players/encoding.py: the board
 * from the agent's seat (its pits and store first), action i sows pit i and
 * action m is the swap of the pie rule.
 */
#ifndef KALAH_BATCH_H
#define KALAH_BATCH_H

#include <stdint.h>

#include "board.h"

enum { KB_OPPONENT_RANDOM = 0, KB_OPPONENT_GREEDY = 1 };
enum { KB_SEAT_RANDOM = 2 }; /* seat option: 0, 1, or drawn at each reset */

typedef struct {
    kalah_rules rules;
    int opponent;      /* KB_OPPONENT_* */
    int seat;          /* 0, 1 or KB_SEAT_RANDOM */
    int margin_reward; /* reward in seeds instead of +1 / 0 / -1 */
} kb_config;

/* Where a step writes, one row per game (obs: 2m+2 bytes, mask: m or m+1 bytes). */
typedef struct {
    uint8_t *obs;
    int8_t *mask;
    float *reward;
    uint8_t *terminated;
    uint8_t *final_obs; /* the observation of a game that just ended (its row is left alone otherwise) */
    int16_t *margin;    /* the agent's final margin of a game that just ended */
    uint8_t *illegal;   /* 1 where the action was illegal (the game is then lost) */
} kb_output;

/* Start games [0, n): a seat for each, the opponent's first moves where the agent sits at seat 1. */
void kb_reset(const kb_config *c, kalah_state *states, uint8_t *seats, int n, kalah_rng *g, kb_output *out);

/* One action per game; returns the number of moves played in all (the agents' and the opponents'). */
int64_t kb_step(const kb_config *c, kalah_state *states, uint8_t *seats, const int64_t *actions, int n, kalah_rng *g,
                kb_output *out);

/* A uniformly random legal action for each game (the agent is to move in every game between steps). */
void kb_random_actions(const kb_config *c, const kalah_state *states, int n, kalah_rng *g, int64_t *actions);

/* The observation and action mask of one game from `seat` (the mask is all 0 unless `seat` is to move). */
void kb_observe(const kb_config *c, const kalah_state *s, int seat, uint8_t *obs, int8_t *mask);

#endif
