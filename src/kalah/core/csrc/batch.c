/* The batched games of batch.h. */
#include "batch.h"

static inline int kb_actions(const kb_config *c)
{ return c->rules.pits + (c->rules.pie_rule ? 1 : 0); }
static inline int kb_obs_size(const kb_config *c)
{ return 2 * c->rules.pits + 2; }

/* The greedy opponent: the move that leaves the most seeds in its own store right after it
 * (an extra turn counts as one seed more, so that of two equal moves it keeps the move),
 * ties broken at random. A one-ply policy: much stronger than random, far weaker than a search. */
static int kb_greedy_move(const kalah_rules *r, const kalah_state *s, kalah_rng *g)
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

/* A uniformly random legal move of the side to move (the game is not over). */
static int kb_random_move(const kb_config *c, const kalah_state *s, kalah_rng *g)
{
    /* Branch-free, as kalah_random_playout: which pits are empty is unpredictable (a third faster). */
    uint8_t moves[KALAH_MAX_MOVES];
    const uint8_t *own = s->cell + kalah_base(&c->rules, s->to_move);
    int n = 0;
    for (int i = 0; i < c->rules.pits; i++) {
        moves[n] = (uint8_t)i;
        n += own[i] != 0;
    }
    if (s->flags & KALAH_SWAP_AVAILABLE) moves[n++] = KALAH_SWAP;
    KALAH_ASSERT(n > 0);
    return moves[kalah_rng_below(g, n)];
}

static int kb_opponent_move(const kb_config *c, const kalah_state *s, kalah_rng *g)
{ return c->opponent == KB_OPPONENT_GREEDY ? kb_greedy_move(&c->rules, s, g) : kb_random_move(c, s, g); }

void kb_random_actions(const kb_config *c, const kalah_state *states, int n, kalah_rng *g, int64_t *actions)
{
    for (int i = 0; i < n; i++) {
        int move = kb_random_move(c, &states[i], g);
        actions[i] = move == KALAH_SWAP ? c->rules.pits : move;
    }
}

/* The opponent plays until the agent is to move or the game is over; returns the moves played. */
static int kb_opponent_turns(const kb_config *c, kalah_state *s, int seat, kalah_rng *g)
{
    int played = 0;
    while (!kalah_is_over(&c->rules, s) && s->to_move != seat) {
        kalah_play(&c->rules, s, kb_opponent_move(c, s, g));
        played++;
    }
    return played;
}

void kb_observe(const kb_config *c, const kalah_state *s, int seat, uint8_t *obs, int8_t *mask)
{
    const kalah_rules *r = &c->rules;
    const int half = r->pits + 1;
    memcpy(obs, s->cell + seat * half, half);
    memcpy(obs + half, s->cell + (1 - seat) * half, half);
    memset(mask, 0, kb_actions(c));
    if (s->to_move != seat || kalah_is_over(r, s)) return;
    const uint8_t *own = s->cell + seat * half;
    for (int i = 0; i < r->pits; i++) mask[i] = own[i] != 0;
    if (s->flags & KALAH_SWAP_AVAILABLE) mask[r->pits] = 1;
}

/* A new game in slot i; returns the opponent's moves played before the agent's first decision. */
static int kb_start(const kb_config *c, kalah_state *s, uint8_t *seat, kalah_rng *g)
{
    kalah_start(&c->rules, s);
    *seat = (uint8_t)(c->seat == KB_SEAT_RANDOM ? kalah_rng_below(g, 2) : c->seat);
    return kb_opponent_turns(c, s, *seat, g);
}

void kb_reset(const kb_config *c, kalah_state *states, uint8_t *seats, int n, kalah_rng *g, kb_output *out)
{
    const int obs_size = kb_obs_size(c), actions = kb_actions(c);
    for (int i = 0; i < n; i++) {
        kb_start(c, &states[i], &seats[i], g);
        kb_observe(c, &states[i], seats[i], out->obs + (int64_t)i * obs_size, out->mask + (int64_t)i * actions);
    }
}

static float kb_reward(const kb_config *c, int margin)
{
    if (c->margin_reward) return (float)margin;
    return (float)((margin > 0) - (margin < 0));
}

int64_t kb_step(const kb_config *c, kalah_state *states, uint8_t *seats, const int64_t *actions, int n, kalah_rng *g,
                kb_output *out)
{
    const kalah_rules *r = &c->rules;
    const int obs_size = kb_obs_size(c), count = kb_actions(c);
    int64_t played = 0;
    for (int i = 0; i < n; i++) {
        kalah_state *s = &states[i];
        const int seat = seats[i];
        uint8_t *obs = out->obs + (int64_t)i * obs_size;
        int8_t *mask = out->mask + (int64_t)i * count;
        const int64_t action = actions[i];
        int move = action == r->pits ? KALAH_SWAP : (int)action;
        int legal = 0 <= action && action < count && s->to_move == seat && kalah_is_legal(r, s, move);
        out->illegal[i] = (uint8_t)!legal;
        out->reward[i] = 0.0f;
        out->terminated[i] = 0;
        if (legal) {
            kalah_play(r, s, move);
            played += 1 + kb_opponent_turns(c, s, seat, g);
            if (!kalah_is_over(r, s)) {
                kb_observe(c, s, seat, obs, mask);
                continue;
            }
        }
        /* The game is over: by its rules, or lost by an illegal action (the worst result there is). */
        int margin = kalah_final_margin(r, s);
        if (seat == 1) margin = -margin;
        if (!legal) margin = -(2 * r->pits * r->seeds);
        out->reward[i] = kb_reward(c, margin);
        out->terminated[i] = 1;
        out->margin[i] = (int16_t)margin;
        kb_observe(c, s, seat, out->final_obs + (int64_t)i * obs_size, mask);
        played += kb_start(c, s, &seats[i], g);
        kb_observe(c, s, seats[i], obs, mask);
    }
    return played;
}
