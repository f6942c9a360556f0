/* table_compare.h: what compare's three row tables share (cells, derived
 * metrics and engines across runs: table_compare_*.c). A row of theirs is a
 * struct cb_compare_row (verdicts/compare.h) in one run: ITEM the row, SUB
 * the run (from 0); their source is the struct cb_compare. */
#ifndef CB_TABLE_COMPARE_H
#define CB_TABLE_COMPARE_H

#include "analysis/report/tables.h"
#include "analysis/verdicts/compare.h"

/* The row's comparison, the row, and its value in the row's run. */
const struct cb_compare *cb_tc_compare(const struct cb_row *r);
const struct cb_compare_value *cb_tc_value(const struct cb_row *r);

/* Every compare row of KIND of the comparison SOURCE, in each run. */
void cb_tc_rows(const void *source, enum cb_compare_kind kind, cb_table_emit *emit, void *arg);
size_t cb_tc_runs(const void *source);

/* Why a row got its verdict, in words, with run numbers from 1. */
void cb_tc_rules_text(const struct cb_compare *c, const struct cb_compare_row *row, char *buf,
                      size_t len);
/* The difference of the deciding pair of runs with its interval:
 * "+13.6% [-80, +600]", the runs named when there are more than two. */
void cb_tc_difference_text(const struct cb_compare *c, const struct cb_compare_row *row, char *buf,
                           size_t len);

/* Getters of the columns every compare row table has. */
void cb_tc_file(const struct cb_row *r, struct cb_value *v);
void cb_tc_run(const struct cb_row *r, struct cb_value *v);
void cb_tc_key(const struct cb_row *r, struct cb_value *v);
void cb_tc_n(const struct cb_row *r, struct cb_value *v);
void cb_tc_estimate(const struct cb_row *r, struct cb_value *v);
void cb_tc_estimate_lo(const struct cb_row *r, struct cb_value *v);
void cb_tc_estimate_hi(const struct cb_row *r, struct cb_value *v);
void cb_tc_level(const struct cb_row *r, struct cb_value *v);
void cb_tc_measure(const struct cb_row *r, struct cb_value *v);
void cb_tc_runs_json(const struct cb_row *r, struct cb_value *v);
void cb_tc_verdict(const struct cb_row *r, struct cb_value *v);
void cb_tc_across(const struct cb_row *r, struct cb_value *v);
void cb_tc_across_lo(const struct cb_row *r, struct cb_value *v);
void cb_tc_across_hi(const struct cb_row *r, struct cb_value *v);
void cb_tc_across_method(const struct cb_row *r, struct cb_value *v);
void cb_tc_across_level(const struct cb_row *r, struct cb_value *v);
void cb_tc_across_headline(const struct cb_row *r, struct cb_value *v);
void cb_tc_delta(const struct cb_row *r, struct cb_value *v);
void cb_tc_stat_runs(const struct cb_row *r, struct cb_value *v);
void cb_tc_spread(const struct cb_row *r, struct cb_value *v);
void cb_tc_q(const struct cb_row *r, struct cb_value *v);
void cb_tc_q_p(const struct cb_row *r, struct cb_value *v);
void cb_tc_i2(const struct cb_row *r, struct cb_value *v);
void cb_tc_p_beyond(const struct cb_row *r, struct cb_value *v);
void cb_tc_p_within(const struct cb_row *r, struct cb_value *v);
void cb_tc_p_adjusted(const struct cb_row *r, struct cb_value *v);
void cb_tc_pair(const struct cb_row *r, struct cb_value *v);
void cb_tc_why(const struct cb_row *r, struct cb_value *v);

/* The run columns of a row in its run (after the row's own key columns):
 * the run's estimate of the row's measure, its interval and level. */
#define CB_TC_RUN_COLUMNS(n_name)                                                                  \
	{"file", CB_COL_TEXT, NULL, cb_tc_file, CB_CSV_JSON, "runs[].file", NULL, NULL},           \
	    {"run", CB_COL_INT, NULL, cb_tc_run, CB_CSV_JSON, "runs[].run", NULL, NULL},           \
	{                                                                                          \
		"runs_all", CB_COL_OBJECT, NULL, cb_tc_runs_json, CB_JSON, "runs",                 \
		    "each run's estimate, interval, n and method: CSV has one row per run", NULL   \
	}
#define CB_TC_ESTIMATE_COLUMNS(value, lo, hi)                                                      \
	{value, CB_COL_NUM, NULL, cb_tc_estimate, CB_CSV_JSON, "runs[].value", NULL, NULL},        \
	    {lo, CB_COL_NUM, NULL, cb_tc_estimate_lo, CB_CSV_JSON, "runs[].lo", NULL, NULL},       \
	    {hi, CB_COL_NUM, NULL, cb_tc_estimate_hi, CB_CSV_JSON, "runs[].hi", NULL, NULL},       \
	{                                                                                          \
		"level", CB_COL_NUM, NULL, cb_tc_level, CB_CSV_JSON, "runs[].level", NULL, NULL    \
	}

/* The verdict across runs and what decided it. */
#define CB_TC_ACROSS_COLUMNS                                                                         \
	{"across_verdict", CB_COL_TEXT, NULL, cb_tc_verdict, CB_CSV_JSON, "verdict", NULL, NULL},    \
	    {"across_method",                                                                        \
	     CB_COL_TEXT,                                                                            \
	     NULL,                                                                                   \
	     cb_tc_across_method,                                                                    \
	     CB_JSON,                                                                                \
	     "across_runs.method",                                                                   \
	     "how the across-run value is made, the same on every row",                              \
	     NULL},                                                                                  \
	    {"across",    CB_COL_NUM,          NULL, cb_tc_across,                                   \
	     CB_CSV_JSON, "across_runs.value", NULL, NULL},                                          \
	    {"across_lo", CB_COL_NUM,       NULL, cb_tc_across_lo,                                   \
	     CB_CSV_JSON, "across_runs.lo", NULL, NULL},                                             \
	    {"across_hi", CB_COL_NUM,       NULL, cb_tc_across_hi,                                   \
	     CB_CSV_JSON, "across_runs.hi", NULL, NULL},                                             \
	    {"across_level",                                                                         \
	     CB_COL_NUM,                                                                             \
	     NULL,                                                                                   \
	     cb_tc_across_level,                                                                     \
	     CB_JSON,                                                                                \
	     "across_runs.level",                                                                    \
	     "the across-run interval's level, the same on every row",                               \
	     NULL},                                                                                  \
	    {"across_headline",                                                                      \
	     CB_COL_BOOL,                                                                            \
	     NULL,                                                                                   \
	     cb_tc_across_headline,                                                                  \
	     CB_JSON,                                                                                \
	     "across_runs.headline",                                                                 \
	     "whether the across-run value is given: CSV's across is empty when not",                \
	     NULL},                                                                                  \
	    {"delta", CB_COL_NUM, NULL, cb_tc_delta, CB_CSV_JSON, "test.delta", NULL, NULL},         \
	    {"statistics_runs",                                                                      \
	     CB_COL_INT,                                                                             \
	     NULL,                                                                                   \
	     cb_tc_stat_runs,                                                                        \
	     CB_JSON,                                                                                \
	     "statistics.runs",                                                                      \
	     "the runs with an estimate: CSV's rows with one",                                       \
	     NULL},                                                                                  \
	    {"spread",    CB_COL_NUM,          NULL, cb_tc_spread,                                   \
	     CB_CSV_JSON, "statistics.spread", NULL, NULL},                                          \
	    {"q", CB_COL_NUM, NULL, cb_tc_q, CB_CSV_JSON, "statistics.cochran_q", NULL, NULL},       \
	    {"q_p", CB_COL_NUM, NULL, cb_tc_q_p, CB_CSV_JSON, "statistics.cochran_q_p", NULL, NULL}, \
	    {"i2", CB_COL_NUM, NULL, cb_tc_i2, CB_CSV_JSON, "statistics.i2", NULL, NULL},            \
	    {"p_beyond",  CB_COL_NUM,      NULL, cb_tc_p_beyond,                                     \
	     CB_CSV_JSON, "test.p_beyond", NULL, NULL},                                              \
	    {"p_within",  CB_COL_NUM,      NULL, cb_tc_p_within,                                     \
	     CB_CSV_JSON, "test.p_within", NULL, NULL},                                              \
	    {"p_adjusted", CB_COL_NUM,        NULL, cb_tc_p_adjusted,                                \
	     CB_CSV_JSON,  "test.p_adjusted", NULL, NULL},                                           \
	    {"pair",                                                                                 \
	     CB_COL_OBJECT,                                                                          \
	     NULL,                                                                                   \
	     cb_tc_pair,                                                                             \
	     CB_JSON,                                                                                \
	     "test.pair",                                                                            \
	     "the deciding pair of runs and their ratio: in the text's runs differ by and why",      \
	     NULL},                                                                                  \
	{                                                                                            \
		"why", CB_COL_TEXT, NULL, cb_tc_why, CB_CSV_JSON, "test.why", NULL, NULL             \
	}

/* Text: the verdict, the deciding difference, the across-run value. */
void cb_tc_text_verdict(const struct cb_row *r, char *buf, size_t len);
void cb_tc_text_difference(const struct cb_row *r, char *buf, size_t len);
void cb_tc_text_across_value(const struct cb_row *r, char *buf, size_t len);
void cb_tc_text_across(const struct cb_row *r, char *buf, size_t len);
void cb_tc_text_run_value(const struct cb_row *r, char *buf, size_t len);
void cb_tc_text_why(const struct cb_row *r, char *buf, size_t len);

#endif
