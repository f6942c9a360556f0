# Fuzzing the two readers of outside input: the scenario loader and the
# results reader. Every build replays the kept cases through the fuzzers'
# entry points (tests/cli_fuzz_cases.sh); a build configured with
# --enable-fuzzers (clang, libFuzzer) also builds the fuzzers themselves:
#   make fuzzers && tests/fuzz/fuzz_results -max_total_time=60 CORPUS tests/fuzz/results-seeds
fuzz_common = tests/fuzz/fuzz_input.c tests/fuzz/fuzz_input.h
check_PROGRAMS += tests/fuzz/replay_results tests/fuzz/replay_scenario
tests_fuzz_replay_results_SOURCES = tests/fuzz/replay.c tests/fuzz/fuzz_results.c $(fuzz_common)
tests_fuzz_replay_scenario_SOURCES = tests/fuzz/replay.c tests/fuzz/fuzz_scenario.c $(fuzz_common)
TESTS += tests/cli_fuzz_cases.sh
dist_check_SCRIPTS += tests/cli_fuzz_cases.sh
EXTRA_DIST += tests/fuzz/README.md tests/fuzz/results.dict tests/fuzz/scenario.dict \
	tests/fuzz/results-seeds tests/fuzz/scenario-seeds \
	tests/fuzz/results-regressions tests/fuzz/scenario-regressions

if FUZZERS
EXTRA_PROGRAMS += tests/fuzz/fuzz_results tests/fuzz/fuzz_scenario
tests_fuzz_fuzz_results_SOURCES = tests/fuzz/fuzz_results.c $(fuzz_common)
tests_fuzz_fuzz_results_LDFLAGS = -fsanitize=fuzzer
tests_fuzz_fuzz_scenario_SOURCES = tests/fuzz/fuzz_scenario.c $(fuzz_common)
tests_fuzz_fuzz_scenario_LDFLAGS = -fsanitize=fuzzer
CLEANFILES += tests/fuzz/fuzz_results$(EXEEXT) tests/fuzz/fuzz_scenario$(EXEEXT)
fuzzers: tests/fuzz/fuzz_results$(EXEEXT) tests/fuzz/fuzz_scenario$(EXEEXT)
else
fuzzers:
	@echo "make fuzzers: configure with --enable-fuzzers first (clang and libFuzzer)" >&2; exit 1
endif
.PHONY: fuzzers
