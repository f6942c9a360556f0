# Running a plan: calibrating its cells, running every trial and handing
# each line to the results module, and the profiled trials of `run
# --explain` after the timed ones.
libcbcore_a_SOURCES += \
	core/run/runner.c core/run/runner.h core/run/run_prepare.c core/run/run_state.h \
	core/run/explain.c core/run/explain.h
