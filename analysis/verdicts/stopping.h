/* stopping.h: sequential rounds, "measure until the answer is known".
 *
 * A run with a stopping rule (`run --until resolved`, the scenario's
 * `stop = {...}`) measures its rounds in blocks. After each block the run
 * command reads back the file so far, analyses it (analysis.h, with the
 * intervals of the rule: confidence sequences, valid at a data-dependent
 * stopping time), and asks this module which questions are still open:
 *
 *   winners     each group (algorithm, op, size, threads): the fastest and
 *               its tied set resolved
 *   derived     each derived metric: a verdict against delta reached; and
 *               its expectation, where one applies
 *   masks       each capability mask: honoured or ignored
 *   precision   where the rule sets one, each cell's headline known within
 *               +-precision
 *
 * A cell leaves the rotation once every question it serves is answered
 * (a cell that serves no question stops at the first look), or when the
 * budget or max_rounds ends. Every look is recorded in the results file
 * (a "look" line) with the questions still open and why each cell stopped,
 * so a resumed run continues with the same rule and the same open cells.
 *
 * Same conventions as stats.h: 0 or a pointer on success, -1 or NULL with a
 * one-line ERR. */
#ifndef CB_STOPPING_H
#define CB_STOPPING_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

struct cb_analysis;
struct cb_results;
struct cb_summary_options;
struct cb_derive_options;

/* The rule, as the results header records it ("stop": {...}). */
struct cb_stop_rule {
	bool until_resolved; /* false: a fixed number of rounds, analysed as ever */
	double alpha;        /* error rate per question: 0.05 */
	double delta;        /* practical margin of the verdicts: the derive option's */
	double precision;    /* relative half-width of each cell's headline; 0: not asked */
	size_t block;        /* rounds per block: a look after each */
	size_t min_rounds;   /* no cell stops before this many measured rounds */
	size_t max_rounds;   /* no cell runs more than this many */
	double budget_s;     /* wall seconds for the whole run; 0: none */
};

/* The defaults: not until resolved, alpha 0.05, delta 0.02, no precision,
 * blocks of 8 rounds (the layout's stratification block), min 8, max 400,
 * no budget. */
void cb_stop_defaults(struct cb_stop_rule *rule);

/* RULE as the header's JSON object, and back: -1 with ERR on a bad object.
 * The object's keys are the structure's names ("until_resolved", "alpha",
 * "delta", "precision", "block", "min_rounds", "max_rounds", "budget_s");
 * a key left out keeps its default, an unknown key or a value out of range
 * (alpha in (0, 0.5), delta > 0, 0 <= precision < 1, block >= 1,
 * 1 <= min_rounds <= max_rounds, budget_s >= 0) is an error. */
json_t *cb_stop_rule_json(const struct cb_stop_rule *rule);
int cb_stop_rule_parse(json_t *o, struct cb_stop_rule *rule, char *err, size_t err_len);

/* The rule of results R: its header's "stop", or the defaults when it has
 * none (a fixed-round run). -1 with ERR when the object is bad. */
int cb_stop_rule_of(const struct cb_results *r, struct cb_stop_rule *rule, char *err,
                    size_t err_len);

/* The options an analysis of a look is built with: the summary's defaults
 * with sequential intervals (confidence sequences, stats/confseq.h) and
 * level 1 - alpha, the derive options' level 1 - alpha and the rule's delta.
 * (cb_analysis_build turns the sequential intervals on by itself for a file
 * whose rule is until_resolved, so `report` shows the intervals the
 * stopping used.) */
void cb_stop_analysis_options(const struct cb_stop_rule *rule, struct cb_summary_options *sopt,
                              struct cb_derive_options *dopt);

enum cb_question_kind { CB_Q_WINNERS, CB_Q_DERIVED, CB_Q_EXPECTATION, CB_Q_MASK, CB_Q_PRECISION };

/* "winners", "derived", "expectation", "mask", "precision": the look line's words. */
const char *cb_question_kind_name(enum cb_question_kind kind);

struct cb_question {
	enum cb_question_kind kind;
	char
	    name[256]; /* "winners aes-128-cbc encrypt 16KiB", "derived aes256/aes128 engine=..." */
	bool open;     /* not answered yet */
	char answer[256]; /* answered: the verdict in words; open: what is missing */
	size_t *cells;    /* the result cells it needs (indices into results->cells) */
	size_t n_cells;
};

struct cb_stop_cell {
	bool open;     /* still in the rotation */
	char why[160]; /* closed: why ("all 3 questions answered", "max_rounds 400 reached");
	                  open: what keeps it ("2 of 3 questions open", "min_rounds 8") */
	size_t rounds; /* measured rounds so far: its measured trials, valid or not */
	size_t n_questions, n_open; /* the questions it serves, and those still open */
};

struct cb_stop_state {
	struct cb_question *questions;
	size_t n_questions, n_open;
	struct cb_stop_cell *cells; /* one per results->cells */
	size_t n_cells, n_open_cells;
};

/* The questions of the run A analysed (A built with RULE's intervals) and
 * which cells still serve an open one. ELAPSED_S: the run's wall time so
 * far, against the budget. NULL with ERR when memory runs out.
 *
 * A question is answered when its verdict in A is reached: a winners group
 * (two or more contenders) when no engine is "not resolved"; a derived
 * metric when it is faster, slower or equivalent; an expectation when
 * consistent or inconsistent; a mask when honoured or ignored (a mask
 * without a reference is answered as such: no round can resolve it); a
 * cell's precision when its MB/s median's interval lies within
 * +-precision of the median. A cell is open while it has fewer than
 * min_rounds, or serves an open question; it closes in any case at
 * max_rounds or when ELAPSED_S reaches the budget, and at once when it
 * serves no question. The check keeps no state: a resumed run gets the
 * same answer from the same file. */
struct cb_stop_state *cb_stop_check(const struct cb_analysis *a, const struct cb_stop_rule *rule,
                                    double elapsed_s, char *err, size_t err_len);
void cb_stop_state_free(struct cb_stop_state *s);

/* The state as a results file's "look" line (without "type" and "round",
 * which the writer adds):
 *   {"questions": 12, "questions_open": 1,
 *    "open_questions": [{"kind": "winners", "name": "...", "missing": "..."}],
 *    "answered": [{"kind": "derived", "name": "...", "answer": "slower: 0.93 [...]"}],
 *    "cells_open": 2, "open_cells": ["label|alg|op|size|threads", ...],
 *    "closed_cells": [{"cell": "...", "why": "all 3 questions answered", "rounds": 40}]} */
json_t *cb_stop_state_json(const struct cb_stop_state *s, const struct cb_results *r);

#endif
