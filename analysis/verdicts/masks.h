/* masks.h: is a capability mask honoured, ignored, or not resolved?
 *
 * A variant with `env` (a CPU-feature mask such as OPENSSL_ia32cap, or any
 * variable) runs the same engine in a process started with that environment.
 * A mask can be silently ignored (a library that never reads the variable, a
 * value it does not parse), and then the masked cells measure the unmasked
 * library: "the feature is worth nothing" would be a wrong conclusion. So each
 * masked variant M is judged against its reference R, a variant of the same
 * engine with no variable set (and the same mode, reuse, chunk and options):
 * the first written with an empty `env = {}`, which runs in a process of its
 * own as M does, else the first without env; cell by cell (same algorithm,
 * op, size and threads), with nothing named:
 *
 *   ratio     throughput of M over R paired by round (bytes per cycle when
 *             both cells have cycles, else MB/s of CPU time when every trial
 *             of both has it, else MB/s): exp of the median per-round log
 *             ratio, exact sign-test intervals (ratio.h).
 *   beyond    the cell's 1 - ALPHA/k interval (Bonferroni over the mask's k
 *             cells) lies wholly outside E = [1/(1+DELTA), 1+DELTA]: the mask
 *             changed the cell by more than DELTA, with confidence.
 *   within    the cell's 1 - 2 ALPHA interval lies inside E (two one-sided
 *             tests at ALPHA): the cell is the same within DELTA.
 *
 * The mask is *honoured* when some cell is beyond DELTA (that cell is the
 * positive control; its ratio is the measured effect), *ignored* when every
 * cell is within DELTA (intersection-union: no correction needed), and *not
 * resolved* otherwise, with the reason. What the masked feature is worth to
 * a cell (1/ratio, or "nothing" for a cell within DELTA) is concluded only
 * for an honoured mask: for an ignored or unresolved one it is withheld,
 * since a mask that changes nothing cannot tell a worthless feature from a
 * mask that was not applied.
 *
 * Beside the timing, where the run has profile lines (run --explain,
 * attribution.h), the code that ran: each mask clears instruction-set
 * classes its variables name (mask_classes.h: OPENSSL_ia32cap=:~0x20000000
 * clears sha-ni), and per cell the share of samples in functions whose code
 * holds such a class is set side by side for R and M (cb_masks_join). The
 * shares *fell* when their exact 95% intervals are apart, M's below, and
 * are *the same* when the intervals overlap. The profiles agree with the
 * timing when the cell is beyond delta and the share fell, or within delta
 * and the share is the same; they disagree when the cell is beyond delta
 * and the share the same ("mask changes time, not code"), within delta and
 * the share fell ("mask changes code, not time"), or the share rose. A
 * profile informs this agreement only: the timing verdicts above never read
 * it. */
#ifndef CB_MASKS_H
#define CB_MASKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "analysis/stats/ratio.h"
#include "analysis/stats/summary.h"
#include "analysis/verdicts/attribution.h"
#include "analysis/verdicts/measure.h"
#include "analysis/verdicts/repro.h"

struct cb_analysis;

enum cb_mask_verdict {
	CB_MASK_NOT_RESOLVED = 0,
	CB_MASK_HONOURED,
	CB_MASK_IGNORED,
};

/* What the profiles say of a masked cell against the timing (above). */
enum cb_mask_agreement {
	CB_MASK_NO_PROFILE = 0, /* a side has no profile with samples, or its hot code was
	                           not decoded */
	CB_MASK_AGREES,
	CB_MASK_DISAGREES,
	CB_MASK_NOT_JUDGED, /* the mask clears no class known here, or the timing is not
	                       resolved */
};

struct cb_mask_code {
	enum cb_mask_agreement agreement;
	/* Samples in functions whose code holds a class the mask clears, of each
	 * side's samples (.what NULL: that side has no profile). */
	struct cb_attribution_share reference, masked;
	int moved;     /* -1 the share fell, 1 rose (intervals apart), 0 the same */
	char why[256]; /* disagrees: "mask changes time, not code", ...; no profile, not
	                  judged: the reason; agrees: what agrees */
};

struct cb_mask_cell {
	const struct cb_cell_summary *masked, *reference;
	bool ok;       /* a ratio was computed; otherwise WHY says why not */
	char why[160]; /* also: why a cell with a ratio is not resolved */
	bool on_cycles;
	enum cb_measure measure; /* what its ratio is of (measure.h) */
	struct cb_ratio beyond;  /* at the Bonferroni level 1 - alpha/k */
	struct cb_ratio within;  /* at 1 - 2 alpha */
	enum cb_margin_verdict verdict;
	size_t
	    rounds_needed; /* not resolved: about the paired rounds that would tell (0: unknown) */
	struct cb_mask_code code; /* set by cb_masks_join */
};

struct cb_mask {
	const char *label;     /* the masked variant's (owned by the results header) */
	const char *engine;    /* its engine */
	json_t *env;           /* its env object (borrowed) */
	char env_text[512];    /* "NAME=value NAME=value" */
	const char *reference; /* the reference variant's label, or NULL */
	bool other_process;    /* the reference runs in cryptobench's own process, M in a
	                          worker child (a library engine without an `env = {}` variant) */
	size_t own_cells;      /* the masked variant's cells in the run */
	struct cb_mask_cell *cells;
	size_t n_cells; /* those with a counterpart in the reference */
	size_t n_beyond, n_within;
	enum cb_mask_verdict verdict;
	const struct cb_mask_cell *effect; /* honoured: the cell most clearly beyond */
	char why[640];                     /* not resolved: the reason */
	/* The code join (cb_masks_join): the classes the mask clears (bits of
	 * cb_attribution_classes), whether a variable of its env is known
	 * (mask_classes.h), the variables that are not, and its cells' count
	 * by agreement. */
	uint32_t clears;
	bool clears_known;
	char unknown_variables[160];
	size_t n_agrees, n_disagrees, n_no_profile, n_not_judged;
};

struct cb_masks {
	struct cb_mask *masks;
	size_t n;
	double delta, alpha;
	bool joined; /* cb_masks_join found profile lines: the code columns hold */
};

/* The masks of the run A analysed, judged with margin DELTA and error rate
 * ALPHA (0 < ALPHA < 0.5). NULL with ERR when memory runs out or an argument
 * is out of range; a run without a masked variant gives N = 0. */
struct cb_masks *cb_masks_build(const struct cb_analysis *a, double delta, double alpha, char *err,
                                size_t err_len);
void cb_masks_free(struct cb_masks *m);

/* "honoured", "ignored", "not resolved". */
const char *cb_mask_verdict_name(enum cb_mask_verdict v);

/* Join M's masks with the profiles E pooled (masks_code.c): each mask's
 * classes, each cell's shares and agreement. Nothing when E has no profile
 * line (M->joined stays false). */
void cb_masks_join(struct cb_masks *m, const struct cb_attribution *e);
/* "agrees", "disagrees", "no profile", "not judged". */
const char *cb_mask_agreement_name(enum cb_mask_agreement a);

#endif
