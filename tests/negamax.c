/* A plain memoized negamax over Kalah's pits, written apart from the solver: the second method that
 * tests/test_solve_values.py holds the table of values (docs/values.json) against.
 *
 * It knows nothing of csrc/: its own sowing, its own memo (an open-addressing hash table of every
 * position reached, grown as it fills), no bounds, no move ordering, no endgame database. A position
 * is the 2m pits seen from the mover (its own row first); its value is the best final margin the mover
 * can still get from the seeds in the pits (the stores only add their difference).
 *
 *     cc -O2 -o negamax tests/negamax.c && ./negamax PITS SEEDS EMPTY_CAPTURE
 *
 * prints one JSON object: the start's value, each first move's value (the mover's margin), and for
 * the pie rule each first move's board without the extra turn (the second player to move; its value
 * for the second player, or the first player's margin when the move ends the game). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_PITS 8

static int pits, empty_capture;

typedef struct {
    uint8_t cells[2 * MAX_PITS];
    int8_t value;
    uint8_t used;
} slot;

static slot *memo;
static uint64_t memo_size, memo_count;

static uint64_t hash_of(const uint8_t *cells) {
    uint64_t h = 1469598103934665603ULL;
    for (int i = 0; i < 2 * pits; i++) h = (h ^ cells[i]) * 1099511628211ULL;
    return h ^ (h >> 29);
}

static slot *find(const uint8_t *cells) {
    uint64_t i = hash_of(cells) & (memo_size - 1);
    while (memo[i].used && memcmp(memo[i].cells, cells, 2 * pits)) i = (i + 1) & (memo_size - 1);
    return &memo[i];
}

static void grow(void) {
    slot *old = memo;
    uint64_t old_size = memo_size;
    memo_size *= 2;
    memo = calloc(memo_size, sizeof(slot));
    if (!memo) {
        fprintf(stderr, "negamax: out of memory\n");
        exit(1);
    }
    for (uint64_t i = 0; i < old_size; i++)
        if (old[i].used) *find(old[i].cells) = old[i];
    free(old);
}

static int side_empty(const uint8_t *row) {
    for (int i = 0; i < pits; i++)
        if (row[i]) return 0;
    return 1;
}

static int seeds_of(const uint8_t *row) {
    int n = 0;
    for (int i = 0; i < pits; i++) n += row[i];
    return n;
}

/* Sow ``pit`` of the mover on ``board`` (2m pits, the mover's first). ``ring`` gets the own pits, the
 * store (index m) and the opponent's pits; returns the index where the last seed fell. */
static int sow(const uint8_t *board, int pit, int *ring) {
    for (int i = 0; i < pits; i++) ring[i] = board[i];
    ring[pits] = 0;
    for (int i = 0; i < pits; i++) ring[pits + 1 + i] = board[pits + i];
    int n = 2 * pits + 1, seeds = ring[pit], place = pit;
    ring[pit] = 0;
    while (seeds--) {
        place = (place + 1) % n;
        ring[place]++;
    }
    if (place < pits && ring[place] == 1) {
        int facing = 2 * pits - place;
        if (ring[facing] || empty_capture) {
            ring[pits] += 1 + ring[facing];
            ring[place] = ring[facing] = 0;
        }
    }
    return place;
}

static int value(const uint8_t *board);

/* The mover's final margin from the pits of ``board`` after playing ``pit``; with ``no_extra_turn``
 * a move into the store hands over the turn (the pie rule's first move). */
static int move_value(const uint8_t *board, int pit, int no_extra_turn) {
    int ring[2 * MAX_PITS + 1];
    int place = sow(board, pit, ring);
    uint8_t mine[MAX_PITS], theirs[MAX_PITS], next[2 * MAX_PITS];
    for (int i = 0; i < pits; i++) {
        mine[i] = (uint8_t)ring[i];
        theirs[i] = (uint8_t)ring[pits + 1 + i];
    }
    int gain = ring[pits];
    if (side_empty(mine) || side_empty(theirs)) return gain + seeds_of(mine) - seeds_of(theirs);
    if (place == pits && !no_extra_turn) {
        memcpy(next, mine, pits);
        memcpy(next + pits, theirs, pits);
        return gain + value(next);
    }
    memcpy(next, theirs, pits);
    memcpy(next + pits, mine, pits);
    return gain - value(next);
}

static int value(const uint8_t *board) {
    slot *s = find(board);
    if (s->used) return s->value;
    int best = -1000;
    for (int pit = 0; pit < pits; pit++) {
        if (!board[pit]) continue;
        int v = move_value(board, pit, 0);
        if (v > best) best = v;
    }
    if (2 * (memo_count + 1) > memo_size) {
        grow();
    }
    s = find(board);
    memcpy(s->cells, board, 2 * pits);
    s->value = (int8_t)best;
    s->used = 1;
    memo_count++;
    return best;
}

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: negamax PITS SEEDS EMPTY_CAPTURE\n");
        return 2;
    }
    pits = atoi(argv[1]);
    int seeds = atoi(argv[2]);
    empty_capture = atoi(argv[3]);
    if (pits < 1 || pits > MAX_PITS || seeds < 1 || 2 * pits * seeds > 120) {
        fprintf(stderr, "negamax: pits 1-%d, at most 120 seeds\n", MAX_PITS);
        return 2;
    }
    memo_size = 1 << 16;
    memo = calloc(memo_size, sizeof(slot));
    uint8_t start[2 * MAX_PITS];
    for (int i = 0; i < 2 * pits; i++) start[i] = (uint8_t)seeds;
    printf("{\"value\": %d, \"moves\": [", value(start));
    for (int pit = 0; pit < pits; pit++) printf("%s%d", pit ? ", " : "", move_value(start, pit, 0));
    /* The pie rule: after first move ``pit`` (no extra turn) the second player moves; its value v for the
     * second player, or, when the move ended the game, "over" with the first player's margin. */
    printf("], \"pie_boards\": [");
    for (int pit = 0; pit < pits; pit++) {
        int ring[2 * MAX_PITS + 1];
        sow(start, pit, ring);
        uint8_t mine[MAX_PITS], theirs[MAX_PITS];
        for (int i = 0; i < pits; i++) {
            mine[i] = (uint8_t)ring[i];
            theirs[i] = (uint8_t)ring[pits + 1 + i];
        }
        if (side_empty(mine) || side_empty(theirs)) {
            printf("%s{\"over\": %d}", pit ? ", " : "", ring[pits] + seeds_of(mine) - seeds_of(theirs));
        } else {
            printf("%s{\"second\": %d}", pit ? ", " : "", -move_value(start, pit, 1));
        }
    }
    printf("], \"positions\": %llu}\n", (unsigned long long)memo_count);
    return 0;
}
