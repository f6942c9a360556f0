# Statistics on samples (GSL), derived metrics, reproducibility, reports.
libcryptobench_a_SOURCES += \
	analysis/stats.c analysis/stats.h \
	analysis/ratio.c analysis/ratio.h \
	analysis/curve.c analysis/curve.h \
	analysis/repro.c analysis/repro.h \
	analysis/report.c analysis/report.h
