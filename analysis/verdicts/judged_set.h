/* judged_set.h: which runs of a `run --runs auto` folder are judged.
 *
 * Such a folder holds a pilot (its first runs, of equal rounds), then sets
 * of runs of equal rounds, each carried out as its plan said unless it was
 * re-planned part-way (a run cost more than predicted) or the budget ran
 * out (plan_runs.h, cli/run_auto.h). compare and claims judge one set of
 * them: runs of fewer rounds have wider intervals, so judged beside longer
 * ones they would only withhold verdicts (every pair's equivalence test
 * must pass), and the plan was made for its set alone. The pilot, and a set
 * left incomplete, are left out. */
#ifndef CB_JUDGED_SET_H
#define CB_JUDGED_SET_H

#include <stdbool.h>
#include <stddef.h>

struct cb_results;

/* The set judged: FILES[first .. end - 1], each of ROUNDS rounds. */
struct cb_judged_set {
	size_t first, end, rounds;
};

/* The set of FILES[0..K-1] (a --runs auto folder's runs, in order) that is
 * judged: its last runs of equal rounds when they are two or more (the set
 * its plan was carried out with), else the latest such set before them.
 * True with *OUT set when that set leaves runs out (K >= 3); false when
 * every run is judged (fewer than three, all of equal rounds, or no two
 * runs of equal rounds in a row), *OUT then FILES[0..K-1]. */
bool cb_judged_set(struct cb_results *const *files, size_t k, struct cb_judged_set *out);

#endif
