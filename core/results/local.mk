# The results file: its fields described once (results_schema.h), the writer,
# the run header, both readers, and the file formats around it (plain or
# compressed lines, the one CSV dialect).
libcbcore_a_SOURCES += \
	core/results/results.c core/results/results_read.c core/results/results.h \
	core/results/results_trials.c core/results/results_trials.h \
	core/results/results_memory.c core/results/results_memory.h \
	core/results/results_scan.c core/results/results_scan.h \
	core/results/results_schema.c core/results/results_header.c \
	core/results/results_schema.h \
	core/results/lines.c core/results/lines.h \
	core/results/csv.c core/results/csv.h

# The source revision of the build, recorded in every results header
# (tool.build): `git describe` of the source tree when it is a checkout (a
# "-dirty" suffix for uncommitted changes), the package version otherwise.
# Regenerated on every make, rewritten only when it changes. BUILT_SOURCES
# covers only `all`, `check` and `install`; the object that includes it
# depends on it too, so that any target that links the core library (`demo`,
# `paper`, `fuzzers`, `cryptobench` alone) makes it first on a fresh clone.
BUILT_SOURCES += core/results/build.h
core/results/results_header.$(OBJEXT): core/results/build.h
CLEANFILES += core/results/build.h
core/results/build.h: FORCE
	$(AM_V_GEN)v=$$(git -C '$(srcdir)' describe --always --dirty --abbrev=12 2>/dev/null) || \
	  v='$(PACKAGE_VERSION)'; \
	mkdir -p core/results; printf '#define CB_BUILD "%s"\n' "$$v" >core/results/build.h.tmp; \
	if cmp -s core/results/build.h.tmp core/results/build.h; then rm -f core/results/build.h.tmp; \
	else mv core/results/build.h.tmp core/results/build.h; fi
.PHONY: FORCE
FORCE:
