# The measuring library (libcbcore.a): input, clocks, host, engines and their
# registry, plan and schedule, the runner, results files, reference and
# known-answer checks. It includes nothing from analysis/ or plots/.
libcbcore_a_SOURCES += \
	core/algorithm.c core/algorithm.h \
	core/errbuf.c core/errbuf.h \
	core/datadir.c core/datadir.h \
	core/units.c core/units.h \
	core/input.c core/input.h \
	core/reference.c core/reference.h \
	core/clock.c core/clock.h \
	core/host.c core/host.h \
	core/scenario.c core/scenario.h \
	core/plan.c core/plan.h \
	core/registry.c core/engine.h \
	core/runner.c core/runner.h \
	core/results.c core/results_read.c core/results.h \
	core/vectors.c core/vectors_run.c core/vectors.h \
	core/verify.c core/verify.h \
	core/trial.c core/trial.h \
	core/engines/null.c core/engines/memcpy.c core/engines/sim.c \
	core/worker.c core/worker.h core/process.c core/process.h

# The optional engines configure found: their objects are LIBOBJS
# (core/engines/NAME.o, one per CB_ENGINE line of configure.ac), compiled by
# automake's own rules with dependency tracking; automake distributes every
# engine source named there, found or not.
libcbcore_a_LIBADD = $(LIBOBJS)

EXTRA_DIST += core/engines/README.md

# The worker programs of other runtimes are runtime data: they install in
# $(pkgdatadir)/workers (core/datadir.h).
workersdir = $(pkgdatadir)/workers
dist_workers_DATA = core/engines/workers/PROTOCOL.md core/engines/workers/worker.py \
	core/engines/workers/worker.js
