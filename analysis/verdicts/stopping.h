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

/* RULE as the header's JSON object, and back: -1 with ERR on a bad object. */
json_t *cb_stop_rule_json(const struct cb_stop_rule *rule);
int cb_stop_rule_parse(json_t *o, struct cb_stop_rule *rule, char *err, size_t err_len);

enum cb_question_kind { CB_Q_WINNERS, CB_Q_DERIVED, CB_Q_EXPECTATION, CB_Q_MASK, CB_Q_PRECISION };

struct cb_question {
	enum cb_question_kind kind;
	char
	    name[256]; /* "winners aes-128-cbc encrypt 16KiB", "derived aes256/aes128 engine=..." */
	bool open;     /* not answered yet */
	char answer[160]; /* answered: the verdict in words; open: what is missing */
	size_t *cells;    /* the result cells it needs (indices into results->cells) */
	size_t n_cells;
};

struct cb_stop_cell {
	bool open;     /* still in the rotation */
	char why[160]; /* closed: why ("all 3 questions answered", "max_rounds") */
	size_t rounds; /* measured rounds so far */
};

struct cb_stop_state {
	struct cb_question *questions;
	size_t n_questions, n_open;
	struct cb_stop_cell *cells; /* one per results->cells */
	size_t n_cells, n_open_cells;
};

/* The questions of the run A analysed (A built with RULE's intervals) and
 * which cells still serve an open one. ELAPSED_S: the run's wall time so
 * far, against the budget. NULL with ERR when memory runs out. */
struct cb_stop_state *cb_stop_check(const struct cb_analysis *a, const struct cb_stop_rule *rule,
                                    double elapsed_s, char *err, size_t err_len);
void cb_stop_state_free(struct cb_stop_state *s);

/* The state as a results file's "look" line (without "type" and "round",
 * which the writer adds): open questions, closed cells with their reasons. */
json_t *cb_stop_state_json(const struct cb_stop_state *s, const struct cb_results *r);

#endif
