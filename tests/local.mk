# Tests: C unit tests (one per module) and CLI tests in shell, all speaking
# TAP to automake's tap-driver, so every test point is counted.
TEST_EXTENSIONS = .sh
LOG_DRIVER = env AM_TAP_AWK='$(AWK)' $(SHELL) $(top_srcdir)/build-aux/tap-driver.sh
SH_LOG_DRIVER = $(LOG_DRIVER)
SH_LOG_COMPILER = $(SHELL)
AM_TESTS_ENVIRONMENT = \
	top_srcdir='$(abs_top_srcdir)'; export top_srcdir; \
	top_builddir='$(abs_top_builddir)'; export top_builddir; \
	CRYPTOBENCH='$(abs_top_builddir)/cryptobench'; export CRYPTOBENCH; \
	OPENSSL_CMD='$(OPENSSL_CMD)'; export OPENSSL_CMD;

unit_tests = \
	tests/test_units \
	tests/test_scenario \
	tests/test_results \
	tests/test_reference \
	tests/test_sim \
	tests/test_stats \
	tests/test_derive \
	tests/test_validation \
	tests/test_clock \
	tests/test_host \
	tests/test_engine_libs \
	tests/test_engine_more \
	tests/test_vectors

check_PROGRAMS += $(unit_tests)
TESTS += $(unit_tests)
LDADD = $(CB_LIBS)
tests_test_host_LDADD = $(CB_LIBS) -ldl

cli_tests = \
	tests/cli_basics.sh \
	tests/cli_bad_scenarios.sh \
	tests/cli_run_sim.sh \
	tests/cli_output.sh \
	tests/cli_openssl.sh \
	tests/cli_interrupt.sh \
	tests/cli_faults.sh \
	tests/cli_verify.sh \
	tests/cli_compare.sh \
	tests/cli_plot.sh \
	tests/layering.sh

TESTS += $(cli_tests)
dist_check_SCRIPTS += $(cli_tests) tests/lib.sh

EXTRA_DIST += tests/tap.h tests/vectors tests/scenarios
