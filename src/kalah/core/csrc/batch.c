/* The batched games of batch.h. */
#include "batch.h"

static inline int kb_actions(const kb_config *c)
{ return c->rules.pits + (c->rules.pie_rule ? 1 : 0); }
static inline int kb_obs_size(const kb_config *c)
{ return 2 * c->rules.pits + 2; }

/* n bytes from src to dst in 8- or 4-byte stores, the last one overlapping the one before (src has
 * room for 8 bytes past n): a row of a few bytes without a call to memcpy. */
static inline void kb_put(void *restrict dst, const uint8_t *restrict src, int n)
{
    uint8_t *out = dst;
    if (n >= 8) {
        for (int at = 0; at + 8 < n; at += 8) memcpy(out + at, src + at, 8);
        memcpy(out + n - 8, src + n - 8, 8);
    } else if (n >= 4) {
        memcpy(out, src, 4);
        memcpy(out + n - 4, src + n - 4, 4);
    } else {
        for (int i = 0; i < n; i++) out[i] = src[i];
    }
}

void kb_observe(const kb_config *c, const kalah_state *s, int seat, uint8_t *restrict obs, int8_t *restrict mask)
{
    const kalah_rules *r = &c->rules;
    const int half = r->pits + 1;
    const int moving = s->to_move == seat && !kalah_is_over(r, s);
    /* The rows are put together in buffers by fixed-size copies and written by kb_put, not byte by
     * byte: self-play spent a third of its time here (164 instructions a game, callgrind; now 60). */
    uint8_t board[2 * KALAH_MAX_CELLS] = {0}, row[2 * KALAH_MAX_CELLS + 16], legal[KALAH_MAX_MOVES + 8];
    memcpy(board, s->cell, sizeof s->cell);
    memcpy(row, board + seat * half, 16);
    memcpy(row + half, board + (1 - seat) * half, 16);
    kb_put(obs, row, 2 * half);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    uint64_t pits; /* the observer's pits, a byte each (the byte build: at most 8), pit 0 lowest */
    memcpy(&pits, row, 8);
    const uint64_t nonempty = (~ko_zero_bytes(pits) & c->board.lanes) >> 7; /* 1 in the byte of a pit with seeds */
    memcpy(legal, &(uint64_t){moving ? nonempty : 0}, 8);
#else
    for (int i = 0; i < r->pits; i++) legal[i] = (uint8_t)(moving & (row[i] != 0));
#endif
    legal[r->pits] = (uint8_t)(moving && (s->flags & KALAH_SWAP_AVAILABLE));
    kb_put(mask, legal, kb_actions(c));
}

/* Game i's row of the observations, from `seat`. */
static void kb_write(const kb_config *c, const kb_game *g, int64_t i, int seat, kb_output *out)
{
    kb_observe(c, &g->s, seat, out->obs + i * kb_obs_size(c), out->mask + i * kb_actions(c));
    out->seat[i] = (uint8_t)seat;
}

static void kb_begin(const kb_config *c, kb_game *g)
{
    kalah_start(&c->rules, &g->s);
    g->seat = (uint8_t)(c->opponent == KB_SELF ? 0 : c->seat == KB_SEAT_RANDOM ? kalah_rng_below(&g->rng, 2) : c->seat);
    g->fresh = 1;
    g->ended = 0;
}

static float kb_reward(const kb_config *c, int margin)
{
    if (c->margin_reward) return (float)margin;
    return (float)((margin > 0) - (margin < 0));
}

/* Game i is over for `actor` with `margin` (from its seat): the step's reward, the final observation,
 * then the next game (same-step) or the mark that the next step starts it. Returns 1 when a new game
 * began, which the caller must bring to the agent's decision. */
static int kb_finish(const kb_config *c, kb_game *g, int64_t i, int actor, int margin, kb_output *out)
{
    out->reward[i] = kb_reward(c, margin);
    out->terminated[i] = 1;
    out->margin[i] = (int16_t)margin;
    if (!c->same_step) {
        kb_write(c, g, i, actor, out); /* the mask is all 0: the game is over */
        g->ended = 1;
        return 0;
    }
    kb_observe(c, &g->s, actor, out->final_obs + i * kb_obs_size(c), out->mask + i * kb_actions(c));
    out->final_seat[i] = (uint8_t)actor;
    kb_begin(c, g);
    g->restarts = 0;
    return 1;
}

/* Bring game i to the agent's decision: the compiled opponent's moves, the end of the game (for
 * `actor`, the seat of the last action), new games as the autoreset says, and the game's row. A game
 * left to the caller's opponent waits without a row. */
static int kb_settle(const kb_config *c, kb_game *g, int64_t i, int actor, kb_output *out, int64_t *moves)
{
    const kalah_rules *r = &c->rules;
    for (;;) {
        while (c->opponent == KB_COMPILED && !kalah_is_over(r, &g->s) && g->s.to_move != g->seat) {
            int move = ko_choose(&c->player, &c->board, &g->s, &g->rng);
            if (move < 0) return KB_NO_MEMORY;
            kalah_play(r, &g->s, move);
            ++*moves;
        }
        if (kalah_is_over(r, &g->s)) {
            if (g->fresh) { /* over before the agent's first decision: not an episode, start again */
                if (++g->restarts > KB_MAX_RESTARTS) return KB_NEVER_MOVES;
                kb_begin(c, g);
                continue;
            }
            int margin = kalah_final_margin(r, &g->s);
            if (kb_finish(c, g, i, actor, actor == 1 ? -margin : margin, out)) continue;
            return KB_OK;
        }
        if (c->opponent == KB_SELF) g->seat = g->s.to_move;
        if (g->s.to_move == g->seat) kb_write(c, g, i, g->seat, out);
        return KB_OK; /* the agent's decision, or the caller's opponent to move */
    }
}

int kb_reset(const kb_config *c, kb_game *games, int n, const uint8_t *which, kb_output *out)
{
    int64_t moves = 0;
    for (int i = 0; i < n; i++) {
        if (which && !which[i]) continue;
        kb_begin(c, &games[i]);
        games[i].restarts = 0;
        int status = kb_settle(c, &games[i], i, games[i].seat, out, &moves);
        if (status != KB_OK) return status;
    }
    return KB_OK;
}

int kb_step(const kb_config *c, kb_game *games, int n, const int64_t *actions, kb_output *out, int64_t *moves)
{
    const kalah_rules *r = &c->rules;
    const int count = kb_actions(c);
    memset(out->reward, 0, n * sizeof *out->reward); /* whole columns at once: the games set their ends */
    memset(out->terminated, 0, n);
    memset(out->illegal, 0, n);
    for (int i = 0; i < n; i++) {
        kb_game *g = &games[i];
        int status;
        if (g->ended) { /* next-step autoreset: this step starts the game, its action is ignored */
            kb_begin(c, g);
            g->restarts = 0;
            status = kb_settle(c, g, i, g->seat, out, moves);
        } else {
            const int actor = g->s.to_move;
            if (actor != g->seat || kalah_is_over(r, &g->s)) continue; /* waiting for the caller: untouched */
            const int64_t action = actions[i];
            const int move = action == r->pits ? KALAH_SWAP : (int)action;
            if (0 <= action && action < count && kalah_is_legal(r, &g->s, move)) {
                kalah_play(r, &g->s, move);
                ++*moves;
                g->fresh = 0;
                g->restarts = 0;
                status = kb_settle(c, g, i, actor, out, moves);
            } else { /* lost by the illegal action: the worst result there is */
                out->illegal[i] = 1;
                g->fresh = 0;
                status = kb_finish(c, g, i, actor, -(2 * r->pits * r->seeds), out)
                             ? kb_settle(c, g, i, actor, out, moves)
                             : KB_OK;
            }
        }
        if (status != KB_OK) return status;
    }
    return KB_OK;
}

static inline int kb_is_waiting(const kb_config *c, const kb_game *g)
{ return c->opponent == KB_CALLER && !g->ended && !kalah_is_over(&c->rules, &g->s) && g->s.to_move != g->seat; }

int kb_waiting(const kb_config *c, const kb_game *games, int n, int32_t *index, uint8_t *obs, int8_t *mask)
{
    int k = 0;
    for (int i = 0; i < n; i++) {
        if (!kb_is_waiting(c, &games[i])) continue;
        const int seat = games[i].s.to_move;
        kb_observe(c, &games[i].s, seat, obs + (int64_t)k * kb_obs_size(c), mask + (int64_t)k * kb_actions(c));
        index[k++] = i;
    }
    return k;
}

int kb_answer(const kb_config *c, kb_game *games, int k, const int32_t *index, const int64_t *actions, kb_output *out,
              int64_t *moves)
{
    const kalah_rules *r = &c->rules;
    for (int j = 0; j < k; j++) { /* all or nothing: an illegal answer changes no game */
        const kb_game *g = &games[index[j]];
        if (!kb_is_waiting(c, g)) return KB_NOT_WAITING;
        const int64_t action = actions[j];
        if (action < 0 || action >= kb_actions(c) ||
            !kalah_is_legal(r, &g->s, action == r->pits ? KALAH_SWAP : (int)action))
            return KB_ILLEGAL_ANSWER;
    }
    for (int j = 0; j < k; j++) {
        kb_game *g = &games[index[j]];
        kalah_play(r, &g->s, actions[j] == r->pits ? KALAH_SWAP : (int)actions[j]);
        ++*moves;
        int status = kb_settle(c, g, index[j], g->seat, out, moves);
        if (status != KB_OK) return status;
    }
    return KB_OK;
}

void kb_random_actions(const kb_config *c, const kb_game *games, int n, kalah_rng *g, int64_t *actions)
{
    const kalah_rules *r = &c->rules;
    for (int i = 0; i < n; i++) {
        const kalah_state *s = &games[i].s;
        if (games[i].ended || kalah_is_over(r, s)) { /* any action does: the next step starts a game */
            actions[i] = 0;
            continue;
        }
        int move = ko_random_move(&c->board, s, g);
        actions[i] = move == KALAH_SWAP ? r->pits : move;
    }
}
