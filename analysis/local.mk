# Analysis in three layers, each a convenience library (tests/layering.sh):
# stats/ turns samples into numbers, verdicts/ judges one run and runs against
# each other, report/ prints. Verdicts never include report/; stats never
# include verdicts/ or report/.
noinst_LIBRARIES += libcbstats.a libcbverdicts.a libcbreport.a

# Samples to numbers (GSL): summaries, exact intervals, robust fits.
libcbstats_a_SOURCES = \
	analysis/stats/stats.c analysis/stats/stats.h analysis/stats/interval.h \
	analysis/stats/ratio.c analysis/stats/ratio.h \
	analysis/stats/confseq.c analysis/stats/confseq.h \
	analysis/stats/dependence.c analysis/stats/dependence.h analysis/stats/own_noise.c \
	analysis/stats/batch_units.c \
	analysis/stats/curve.c analysis/stats/curve.h \
	analysis/stats/robust_line.c analysis/stats/robust_line.h \
	analysis/stats/summary.c analysis/stats/summary.h \
	analysis/stats/components.c analysis/stats/components.h

# One run's analysis and the verdicts on it and across runs.
libcbverdicts_a_SOURCES = \
	analysis/verdicts/analysis.c analysis/verdicts/analysis.h analysis/verdicts/analysis_data.h \
	analysis/verdicts/derive.c analysis/verdicts/derive.h \
	analysis/verdicts/winners.c analysis/verdicts/winners.h \
	analysis/verdicts/masks.c analysis/verdicts/masks.h analysis/verdicts/masks_code.c \
	analysis/verdicts/mask_classes.c analysis/verdicts/mask_classes.h \
	analysis/verdicts/attribution.c analysis/verdicts/attribution.h \
	analysis/verdicts/attribution_sides.c \
	analysis/verdicts/measure.c analysis/verdicts/measure.h \
	analysis/verdicts/stopping.c analysis/verdicts/stopping.h \
	analysis/verdicts/repro.c analysis/verdicts/repro.h \
	analysis/verdicts/compare.c analysis/verdicts/compare.h \
	analysis/verdicts/baseline.c analysis/verdicts/baseline.h \
	analysis/verdicts/hosts.c analysis/verdicts/hosts.h \
	analysis/verdicts/plan_runs.c analysis/verdicts/plan_runs.h \
	analysis/verdicts/judged_set.c analysis/verdicts/judged_set.h \
	analysis/verdicts/plan_runs_predict.c analysis/verdicts/plan_runs_predict.h

# Printing: text, Markdown, CSV and JSON.
libcbreport_a_SOURCES = \
	analysis/report/format.c analysis/report/format.h \
	analysis/report/report.c analysis/report/report.h \
	analysis/report/report_sections.c \
	analysis/report/report_json.c analysis/report/report_csv.c \
	analysis/report/report_compare.c analysis/report/report_baseline.c \
	analysis/report/report_hosts.c \
	analysis/report/table.c analysis/report/table.h analysis/report/tables.h \
	analysis/report/table_cells.c analysis/report/table_winners.c \
	analysis/report/table_derived.c analysis/report/table_slopes.c \
	analysis/report/table_crossovers.c analysis/report/table_masks.c \
	analysis/report/table_explain.c analysis/report/table_explain_summary.c \
	analysis/report/table_compare.h analysis/report/table_compare_rows.c \
	analysis/report/table_compare_cells.c analysis/report/table_compare_derived.c \
	analysis/report/table_compare_engines.c analysis/report/table_flips.c \
	analysis/report/table_baseline.h analysis/report/table_baseline.c \
	analysis/report/table_hosts.c \
	analysis/report/report_plan.c

EXTRA_DIST += analysis/README.md analysis/report/README.md
