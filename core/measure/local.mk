# Measuring: a scenario as C data, the plan of cells and slots built from
# it, one timed and verified trial, and a run's time budget.
libcbcore_a_SOURCES += \
	core/measure/scenario.c core/measure/scenario.h \
	core/measure/plan.c core/measure/plan.h \
	core/measure/trial.c core/measure/trial_buffers.c core/measure/trial.h \
	core/measure/budget.c core/measure/budget.h
