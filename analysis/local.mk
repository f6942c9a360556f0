# Statistics on samples (GSL), derived metrics, reproducibility, reports.
libcbanalysis_a_SOURCES += \
	analysis/stats.c analysis/stats.h \
	analysis/ratio.c analysis/ratio.h \
	analysis/curve.c analysis/curve.h \
	analysis/robust_line.c analysis/robust_line.h \
	analysis/repro.c analysis/repro.h \
	analysis/summary.c analysis/summary.h \
	analysis/derive.c analysis/derive.h \
	analysis/masks.c analysis/masks.h \
	analysis/winners.c analysis/winners.h \
	analysis/baseline.c analysis/baseline.h \
	analysis/hosts.c analysis/hosts.h \
	analysis/compare.c analysis/compare.h \
	analysis/format.c analysis/format.h \
	analysis/report.c analysis/report_json.c analysis/report_compare.c \
	analysis/report_csv.c analysis/report_baseline.c analysis/report_hosts.c \
	analysis/report.h

EXTRA_DIST += analysis/README.md
