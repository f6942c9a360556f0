/* table_baseline.h: the columns a run against a baseline (table_baseline.c)
 * and a host against the baseline host (table_hosts.c) share: one row per
 * common cell, a struct cb_baseline_row. */
#ifndef CB_TABLE_BASELINE_H
#define CB_TABLE_BASELINE_H

#include "analysis/report/tables.h"
#include "analysis/verdicts/baseline.h"

void cb_tb_rows(const struct cb_baseline *b, cb_table_emit *emit, void *arg);
/* CB_IF_THREADS and CB_IF_MEASURES for B's rows. */
unsigned cb_tb_conditions(const struct cb_baseline *b);

void cb_tb_cell(const struct cb_row *r, struct cb_value *v);
void cb_tb_engine(const struct cb_row *r, struct cb_value *v);
void cb_tb_label(const struct cb_row *r, struct cb_value *v);
void cb_tb_algorithm(const struct cb_row *r, struct cb_value *v);
void cb_tb_op(const struct cb_row *r, struct cb_value *v);
void cb_tb_size(const struct cb_row *r, struct cb_value *v);
void cb_tb_threads(const struct cb_row *r, struct cb_value *v);
void cb_tb_measure(const struct cb_row *r, struct cb_value *v);
void cb_tb_base(const struct cb_row *r, struct cb_value *v);
void cb_tb_base_lo(const struct cb_row *r, struct cb_value *v);
void cb_tb_base_hi(const struct cb_row *r, struct cb_value *v);
void cb_tb_other(const struct cb_row *r, struct cb_value *v);
void cb_tb_other_lo(const struct cb_row *r, struct cb_value *v);
void cb_tb_other_hi(const struct cb_row *r, struct cb_value *v);
void cb_tb_base_mbs(const struct cb_row *r, struct cb_value *v);
void cb_tb_other_mbs(const struct cb_row *r, struct cb_value *v);
void cb_tb_ratio(const struct cb_row *r, struct cb_value *v);
void cb_tb_ratio_lo(const struct cb_row *r, struct cb_value *v);
void cb_tb_ratio_hi(const struct cb_row *r, struct cb_value *v);
void cb_tb_delta(const struct cb_row *r, struct cb_value *v);
void cb_tb_verdict(const struct cb_row *r, struct cb_value *v);
void cb_tb_verdict_alone(const struct cb_row *r, struct cb_value *v);
void cb_tb_family(const struct cb_row *r, struct cb_value *v);
void cb_tb_p_beyond(const struct cb_row *r, struct cb_value *v);
void cb_tb_p_within(const struct cb_row *r, struct cb_value *v);
void cb_tb_p_adjusted(const struct cb_row *r, struct cb_value *v);

/* The JSON-only cell object and the key columns (the run's cell). */
#define CB_TB_KEY_COLUMNS                                                                          \
	{"cell",                                                                                   \
	 CB_COL_OBJECT,                                                                            \
	 NULL,                                                                                     \
	 cb_tb_cell,                                                                               \
	 CB_JSON,                                                                                  \
	 "cell",                                                                                   \
	 "the cell as the results file gives it: CSV has its key columns",                         \
	 NULL},                                                                                    \
	    {"engine", CB_COL_TEXT, NULL, cb_tb_engine, CB_CSV_JSON, "cell.engine", NULL, NULL},   \
	    {"label", CB_COL_TEXT, NULL, cb_tb_label, CB_CSV_JSON, "cell.label", NULL, NULL},      \
	    {"algorithm", CB_COL_TEXT,      NULL, cb_tb_algorithm,                                 \
	     CB_CSV_JSON, "cell.algorithm", NULL, NULL},                                           \
	    {"op", CB_COL_TEXT, NULL, cb_tb_op, CB_CSV_JSON, "cell.op", NULL, NULL},               \
	    {"size", CB_COL_INT, "bytes", cb_tb_size, CB_CSV_JSON, "cell.size", NULL, NULL},       \
	{                                                                                          \
		"threads", CB_COL_INT, NULL, cb_tb_threads, CB_CSV_JSON, "cell.threads", NULL,     \
		    NULL                                                                           \
	}

/* From the measure to p_adjusted: each side's estimate, the ratio, the
 * verdict. */
#define CB_TB_ROW_COLUMNS                                                                           \
	{"measure", CB_COL_TEXT, NULL, cb_tb_measure, CB_CSV_JSON, "measure", NULL, NULL},          \
	    {"baseline", CB_COL_NUM, NULL, cb_tb_base, CB_CSV_JSON, "baseline.value", NULL, NULL},  \
	    {"baseline_lo", CB_COL_NUM,    NULL, cb_tb_base_lo,                                     \
	     CB_CSV_JSON,   "baseline.lo", NULL, NULL},                                             \
	    {"baseline_hi", CB_COL_NUM,    NULL, cb_tb_base_hi,                                     \
	     CB_CSV_JSON,   "baseline.hi", NULL, NULL},                                             \
	    {"estimate", CB_COL_NUM, NULL, cb_tb_other, CB_CSV_JSON, "estimate.value", NULL, NULL}, \
	    {"estimate_lo", CB_COL_NUM,    NULL, cb_tb_other_lo,                                    \
	     CB_CSV_JSON,   "estimate.lo", NULL, NULL},                                             \
	    {"estimate_hi", CB_COL_NUM,    NULL, cb_tb_other_hi,                                    \
	     CB_CSV_JSON,   "estimate.hi", NULL, NULL},                                             \
	    {"baseline_mb_per_s_median", CB_COL_NUM, "MB/s", cb_tb_base_mbs, CB_CSV_JSON,           \
	     "mb_per_s_median.baseline", NULL,       NULL},                                         \
	    {"mb_per_s_median",     CB_COL_NUM, "MB/s", cb_tb_other_mbs, CB_CSV_JSON,               \
	     "mb_per_s_median.run", NULL,       NULL},                                              \
	    {"ratio", CB_COL_NUM, NULL, cb_tb_ratio, CB_CSV_JSON, "ratio.value", NULL, NULL},       \
	    {"ratio_lo", CB_COL_NUM, NULL, cb_tb_ratio_lo, CB_CSV_JSON, "ratio.lo", NULL, NULL},    \
	    {"ratio_hi", CB_COL_NUM, NULL, cb_tb_ratio_hi, CB_CSV_JSON, "ratio.hi", NULL, NULL},    \
	    {"delta", CB_COL_NUM, NULL, cb_tb_delta, CB_CSV_JSON, "delta", NULL, NULL},             \
	    {"verdict",                                                                             \
	     CB_COL_TEXT,                                                                           \
	     NULL,                                                                                  \
	     cb_tb_verdict,                                                                         \
	     CB_CSV,                                                                                \
	     NULL,                                                                                  \
	     "the verdict after the table's adjustment ('not resolved (table)'): JSON gives the "   \
	     "cell's own (verdict_alone) and beyond_delta_alone",                                   \
	     NULL},                                                                                 \
	    {"verdict_alone",                                                                       \
	     CB_COL_TEXT,                                                                           \
	     NULL,                                                                                  \
	     cb_tb_verdict_alone,                                                                   \
	     CB_JSON,                                                                               \
	     "verdict",                                                                             \
	     "the cell's verdict before the table's adjustment: CSV's verdict is after it",         \
	     NULL},                                                                                 \
	    {"beyond_delta_alone",                                                                  \
	     CB_COL_BOOL,                                                                           \
	     NULL,                                                                                  \
	     cb_tb_family,                                                                          \
	     CB_JSON,                                                                               \
	     "beyond_delta_alone",                                                                  \
	     "beyond delta alone, not across the table: CSV's verdict says it",                     \
	     NULL},                                                                                 \
	    {"p_beyond", CB_COL_NUM, NULL, cb_tb_p_beyond, CB_CSV_JSON, "p_beyond", NULL, NULL},    \
	    {"p_within", CB_COL_NUM, NULL, cb_tb_p_within, CB_CSV_JSON, "p_within", NULL, NULL},    \
	{                                                                                           \
		"p_adjusted", CB_COL_NUM, NULL, cb_tb_p_adjusted, CB_CSV_JSON, "p_adjusted", NULL,  \
		    NULL                                                                            \
	}

#define CB_TB_JSON_ORDER                                                                           \
	"cell measure baseline estimate ratio mb_per_s_median delta verdict beyond_delta_alone "   \
	"p_beyond p_within p_adjusted"

/* Text: the ratio as a change, and the verdict. */
void cb_tb_text_change(const struct cb_row *r, char *buf, size_t len);

#endif
