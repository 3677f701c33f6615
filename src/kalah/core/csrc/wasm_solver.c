/* The exact solver and the endgame databases for the browser (wasm.h): the null-window tests the
 * engine's MTD(f) (web/static/engine/solve.js) is made of, as kalah.core.solver's Solver answers
 * them, and databases built in memory. kalah.wasm only (they exist as byte builds). */
#include <stdlib.h>

#include "endgame.h"
#include "solve.h"
#include "wasm.h"

/* A database of every position with at most K seeds in the pits, with its oracle for the searches. */
typedef struct {
    kalah_egdb db;
    kalah_oracle oracle;
} kw_database;

/* The pits in kw_cells (the mover's m, then the opponent's m) as the solver reads them. */
static void kw_pits(int pits, uint8_t *out)
{
    memset(out, 0, 16);
    for (int i = 0; i < 2 * pits; i++) out[i] = (uint8_t)kw_cells[i];
}

KW_EXPORT kalah_solver *kw_solver_new(int pits, int empty_capture, int tt_log2)
{ return kalah_solver_new(pits, empty_capture, tt_log2); }

KW_EXPORT void kw_solver_free(kalah_solver *solver)
{ kalah_solver_free(solver); }

KW_EXPORT void kw_solver_set_database(kalah_solver *solver, kw_database *database)
{ kalah_solver_set_oracle(solver, database ? &database->oracle : NULL); }

/* Solver.search: fail-soft alpha-beta over the pits in kw_cells with window (alpha, beta) on one
 * thread, until `deadline` on the core's clock (0: none). kw_out: value, aborted, nodes. */
KW_EXPORT int kw_solver_search(kalah_solver *solver, int pits, int alpha, int beta, double deadline)
{
    uint8_t buf[16];
    int aborted = 0;
    uint64_t nodes = 0;
    volatile int stop = 0;
    kw_pits(pits, buf);
    int value = kalah_solver_search(solver, buf, alpha, beta, 1, deadline, &stop, &aborted, &nodes);
    kw_out[0] = value;
    kw_out[1] = aborted;
    kw_out[2] = (double)nodes;
    return value;
}

/* Solver.lookup: 1 and kw_out = lower, upper, move (-1: none) when the table holds the pits in kw_cells. */
KW_EXPORT int kw_solver_lookup(kalah_solver *solver, int pits)
{
    uint8_t buf[16];
    int lower, upper, best;
    kw_pits(pits, buf);
    if (!kalah_solver_lookup(solver, buf, &lower, &upper, &best)) return 0;
    kw_out[0] = lower;
    kw_out[1] = upper;
    kw_out[2] = best;
    return 1;
}

/* The database of `pits` pits, the capture rule and K = max_seeds, built whole, layer after layer
 * (as kalah.endgame builds one in memory); NULL when out of range or out of memory. */
KW_EXPORT kw_database *kw_database_new(int pits, int empty_capture, int max_seeds)
{
    kw_database *d = calloc(1, sizeof *d);
    if (!d) return NULL;
    if (kalah_egdb_init(&d->db, pits, empty_capture, max_seeds) != 0 ||
        !(d->db.packed = calloc(1, kalah_egdb_bytes(&d->db)))) {
        free(d);
        return NULL;
    }
    for (int seeds = 0; seeds <= max_seeds; seeds++) {
        int failed = kalah_egdb_begin_layer(&d->db, seeds) != 0 ||
                     kalah_egdb_build_range(&d->db, seeds, 0, kalah_egdb_layer_size(&d->db, seeds), 1, NULL) != 0;
        kalah_egdb_end_layer(&d->db, seeds);
        if (failed) {
            free(d->db.packed);
            free(d);
            return NULL;
        }
    }
    d->oracle.db = &d->db;
    d->oracle.max_seeds = max_seeds;
    d->oracle.probe = kalah_egdb_probe;
    return d;
}

KW_EXPORT void kw_database_free(kw_database *d)
{
    if (!d) return;
    free(d->db.packed);
    free(d);
}

/* The oracle of a database, for kw_engine_set_oracle. */
KW_EXPORT const kalah_oracle *kw_database_oracle(kw_database *d)
{ return &d->oracle; }

/* Positions of a database of `pits` pits and K = max_seeds (0 when out of range): what it costs to build. */
KW_EXPORT double kw_database_positions(int pits, int max_seeds)
{
    kalah_egdb db;
    return kalah_egdb_init(&db, pits, 0, max_seeds) == 0 ? (double)kalah_egdb_size(&db) : 0;
}

/* The value of the pits in kw_cells (mover's view) with `seeds` seeds, at most K. */
KW_EXPORT int kw_database_value(kw_database *d, int seeds)
{
    uint8_t buf[16];
    kw_pits(d->db.pits, buf);
    return kalah_egdb_read(&d->db, kalah_egdb_ref_of(&d->db, seeds, kalah_egdb_index(&d->db, buf, seeds)));
}
