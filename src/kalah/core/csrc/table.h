/* The transposition table of the search engine (search.c); its entry, ks_entry,
 * is declared in search.h with the context that holds the table.
 *
 * Buckets of four entries (one 64-byte cache line), keyed by a 64-bit hash
 * of the whole state salted per search (ks_clear), so that a new search never
 * sees the entries of the last one. A new entry takes an empty slot, else the
 * slot of an older search, else the shallowest entry: the deep entries that
 * save the most work stay (at depth 24 from the start, 60 % fewer nodes than
 * one always-replaced entry per slot). Entries store bound flags as the seed project's
 * `store_cache` does ('=' exact, '≥' lower, '≤' upper).
 *
 * An entry is used for a value only at exactly the depth it was computed for
 * (the seeds key their cache on the depth limit too), or at a greater depth
 * when it is proven (no heuristic leaf below it). That keeps every
 * algorithm's answer equal to plain depth-limited minimax. A timed pvs or
 * mtdf search (deeper_entries) also lets an entry of a deeper search answer a
 * shallower node, as tournament engines do: better informed, but no longer
 * the depth-N minimax value.
 *
 * Everything here is static inline: the probes sit in the inner loop of every
 * algorithm.
 */
#ifndef KALAH_TABLE_H
#define KALAH_TABLE_H

#include <stddef.h>

#include "search.h"

_Static_assert(KS_MAX_DEPTH <= INT8_MAX, "an entry keeps its depth in an int8_t");

/* Nodes just above the frontier do not use the table: their subtrees are too
 * small to repay a probe that usually misses the cache. */
#define KS_TABLE_MIN_DEPTH 2

#ifdef KALAH_BIG
static inline uint64_t ks_hash(const kalah_state *s)
{ return kalah_big_hash(s); }
#else
/* A hash of the whole state: the 18 cells, the side to move and the pie-rule flags. */
static inline uint64_t ks_hash(const kalah_state *s)
{
    _Static_assert(sizeof(kalah_state) == 20 && KALAH_MAX_CELLS == 18, "the hash reads the state as 8 + 8 + 4 bytes");
    uint64_t a, b;
    uint32_t d;
    memcpy(&a, s->cell, 8);
    memcpy(&b, s->cell + 8, 8);
    memcpy(&d, s->cell + 16, 4); /* cells 16, 17, to_move, flags */
    return kalah_mix64(kalah_hash2(a, b, KALAH_GOLDEN) ^ ((uint64_t)d << 1 | 1));
}
#endif

/* The table key of a state in this search. */
static inline uint64_t ks_key(const ks_context *c, const kalah_state *s)
{ return (ks_hash(s) ^ c->shared.salt) | 1; /* 0 marks an empty slot */ }

/* Is an entry well formed, and its move legal in s? (for the checks of a debug
 * build: a 64-bit key makes two states sharing an entry practically impossible) */
static inline int ks_entry_sane(const ks_context *c, const ks_entry *e, const kalah_state *s)
{
    return e->key != 0 && e->flag <= KS_UPPER && 1 <= e->depth && e->depth <= KS_MAX_DEPTH && -KS_INF < e->value &&
           e->value < KS_INF && (e->move == KS_NO_MOVE || kalah_is_legal(&c->settings.rules, s, e->move));
}

#define KS_WAYS 4

/* The entries a key may live in: its bucket (the whole table when it is smaller than a bucket). */
static inline ks_entry *ks_bucket(const ks_context *c, uint64_t key, int *ways)
{
    *ways = c->shared.mask < KS_WAYS - 1 ? (int)c->shared.mask + 1 : KS_WAYS;
    return &c->shared.table[key & c->shared.mask & ~(uint64_t)(*ways - 1)];
}

/* `proven` holds two things: bit 0, no heuristic leaf below (the value holds at any greater depth);
 * bits 1-7, the search (generation) that stored the entry, for replacement. */
#define KS_PROVEN(e)     ((e)->proven & 1)
#define KS_GENERATION(c) ((uint8_t)((c)->shared.generation & 127))

/* Several threads may read and write the table at once (smp.c): a slot holds
 * its key XORed with its data word (value, depth, flag, move, proven), so a
 * slot torn by two writes no longer matches its key and reads as a miss
 * (Hyatt and Mann's lockless hashing). Both words are read and written with
 * relaxed atomics (plain moves on x86-64: no cost, and no data race), and
 * readers copy a slot before using it. */
_Static_assert(sizeof(ks_entry) == 16 && offsetof(ks_entry, data) == 8, "a slot is a key word and a data word");

static inline void ks_slot_read(const ks_entry *slot, uint64_t *check, uint64_t *data)
{
    *check = __atomic_load_n(&slot->key, __ATOMIC_RELAXED);
    *data = __atomic_load_n(&slot->data, __ATOMIC_RELAXED);
}

/* Looks a key up: copies its entry into *out (with its plain key) and returns out, or NULL. */
static inline ks_entry *ks_table_find(ks_context *c, uint64_t key, ks_entry *out)
{
    int ways;
    ks_entry *b = ks_bucket(c, key, &ways);
    for (int i = 0; i < ways; i++) {
        uint64_t check, data;
        ks_slot_read(&b[i], &check, &data);
        if ((check ^ data) == key) {
            out->key = key;
            out->data = data;
            return out;
        }
    }
    return NULL;
}

/* Is the entry's value valid for a search of this depth? */
static inline int ks_usable(const ks_context *c, const ks_entry *e, int depth)
{ return e->depth == depth || (KS_PROVEN(e) && depth >= e->depth) || (c->settings.deeper_entries && e->depth > depth); }

/* Writes an entry; `move` is the best or refuting move, KS_NO_MOVE if none.
 * The value is proven when no heuristic leaf was seen since heuristic_before. */
static inline void ks_table_store(ks_context *c, uint64_t key, int depth, int value, int flag, int move,
                                  uint64_t heuristic_before)
{
    KALAH_ASSERT(key & 1);
    KALAH_ASSERT(1 <= depth && depth <= KS_MAX_DEPTH);
    KALAH_ASSERT(flag == KS_EXACT || flag == KS_LOWER || flag == KS_UPPER);
    KALAH_ASSERT(-KS_INF < value && value < KS_INF);
    KALAH_ASSERT(c->stats.heuristic >= heuristic_before);
    int ways;
    ks_entry *b = ks_bucket(c, key, &ways), *e = NULL;
    ks_entry slot[KS_WAYS];
    for (int i = 0; i < ways; i++) {
        ks_slot_read(&b[i], &slot[i].key, &slot[i].data);
        if (!e && (slot[i].key ^ slot[i].data) == key) e = &b[i];
    }
    if (!e) { /* the victim: an empty slot, else one of an older search, else the shallowest */
        int worst = INT32_MAX;
        for (int i = 0; i < ways; i++) {
            int score = slot[i].key == 0 && slot[i].data == 0
                            ? -1000
                            : ((slot[i].proven >> 1) != KS_GENERATION(c) ? -500 : 0) + slot[i].depth;
            if (score < worst) {
                worst = score;
                e = &b[i];
            }
        }
    }
    ks_entry entry = {0};
    entry.value = value;
    entry.depth = (int8_t)depth;
    entry.flag = (uint8_t)flag;
    entry.move = (uint8_t)move;
    entry.proven = (uint8_t)((c->stats.heuristic == heuristic_before) | (KS_GENERATION(c) << 1));
    __atomic_store_n(&e->data, entry.data, __ATOMIC_RELAXED);
    __atomic_store_n(&e->key, key ^ entry.data, __ATOMIC_RELAXED);
}

/* Threads that search the same tree split it (simplified ABDADA, Kerrigan): a
 * small shared array marks the children some thread is searching now, and a
 * node's later children (its first child is always searched at once, the
 * young brothers wait) that another thread is busy with are put off to the end
 * of the node's move list. Marks are hints, never values: a lost or stale mark
 * only costs time, and the order of a node's moves does not change its value. */
#define KS_BUSY_SLOTS     8192
#define KS_BUSY_MIN_DEPTH 3 /* smaller subtrees are cheaper to search twice than to mark */

static inline int ks_busy_elsewhere(const ks_context *c, uint64_t key)
{ return __atomic_load_n(&c->shared.busy[key & (KS_BUSY_SLOTS - 1)], __ATOMIC_RELAXED) == key; }

static inline void ks_busy_mark(ks_context *c, uint64_t key)
{ __atomic_store_n(&c->shared.busy[key & (KS_BUSY_SLOTS - 1)], key, __ATOMIC_RELAXED); }

static inline void ks_busy_unmark(ks_context *c, uint64_t key)
{
    uint64_t expected = key;
    __atomic_compare_exchange_n(&c->shared.busy[key & (KS_BUSY_SLOTS - 1)], &expected, 0, 0, __ATOMIC_RELAXED,
                                __ATOMIC_RELAXED);
}

/* Before a node searches a later child (`depth` left below it): returns 1 to put
 * the child off, on the first pass over the moves, when another thread is
 * searching it; else marks it as this thread's and sets *mark to the key to
 * unmark afterwards (0: nothing marked, e.g. one thread or a small subtree). */
static inline int ks_busy_defer(ks_context *c, const kalah_state *child, int depth, int first_pass, uint64_t *mark)
{
    *mark = 0;
    if (!c->shared.busy || depth < KS_BUSY_MIN_DEPTH || kalah_is_over(&c->settings.rules, child)) return 0;
    uint64_t key = ks_key(c, child);
    if (first_pass && ks_busy_elsewhere(c, key)) return 1;
    ks_busy_mark(c, key);
    *mark = key;
    return 0;
}

/* A table value was used: if it rests on heuristics, so does whatever uses it. */
static inline void ks_table_used(ks_context *c, const ks_entry *e)
{
    if (!KS_PROVEN(e)) c->stats.heuristic++;
}

/* The seeds' `evaluate`: an exact entry answers; a bound either answers (it is
 * outside the window) or narrows the window. Returns 1 with *value on an answer. */
static inline int ks_table_window(ks_context *c, ks_entry *e, int depth, int *alpha, int *beta, int *value)
{
    if (!e || !ks_usable(c, e, depth)) return 0;
    c->stats.tt_hits++;
    int v = e->value;
    if (e->flag == KS_EXACT) {
        ks_table_used(c, e);
        *value = v;
        return 1;
    }
    if (e->flag == KS_UPPER) {       /* value <= v */
        if (v <= *alpha) {
            ks_table_used(c, e);
            *value = v;
            return 1;
        }
        if (v < *beta) {
            ks_table_used(c, e);
            *beta = v;
        }
    } else {                         /* value >= v */
        if (v >= *beta) {
            ks_table_used(c, e);
            *value = v;
            return 1;
        }
        if (v > *alpha) {
            ks_table_used(c, e);
            *alpha = v;
        }
    }
    KALAH_ASSERT(*alpha < *beta); /* a narrowed window that closed would have answered */
    return 0;
}

/* An exact table entry answers (the memo of minimax and of Scout's EVAL). */
static inline int ks_table_exact(ks_context *c, const ks_entry *e, int depth, int *value)
{
    if (!e || e->flag != KS_EXACT || !ks_usable(c, e, depth)) return 0;
    c->stats.tt_hits++;
    ks_table_used(c, e);
    *value = e->value;
    return 1;
}

/* For Scout's TEST "value >= t": an entry answers when its bound decides the
 * question. Returns 1 with the answer in *pass. */
static inline int ks_table_test(ks_context *c, const ks_entry *e, int depth, int t, int *pass)
{
    if (!e || !ks_usable(c, e, depth)) return 0;
    if ((e->flag != KS_UPPER && e->value >= t) || (e->flag != KS_LOWER && e->value < t)) {
        c->stats.tt_hits++;
        ks_table_used(c, e);
        *pass = e->value >= t;
        return 1;
    }
    return 0;
}

#endif
