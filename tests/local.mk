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
	OPENSSL_CMD='$(OPENSSL_CMD)'; export OPENSSL_CMD; \
	GO='$(GO)'; export GO; GO_TAGS='$(GO_TAGS)'; export GO_TAGS; \
	pkgdatadir='$(pkgdatadir)'; export pkgdatadir; \
	pkglibexecdir='$(pkglibexecdir)'; export pkglibexecdir;

unit_tests = \
	tests/test_units \
	tests/test_scenario \
	tests/test_results \
	tests/test_results_scan \
	tests/test_results_schema \
	tests/test_reference \
	tests/test_sim \
	tests/test_stats \
	tests/test_derive \
	tests/test_stopping \
	tests/test_dependence \
	tests/test_placement \
	tests/test_tables \
	tests/test_attribution \
	tests/test_validation \
	tests/test_sequential \
	tests/test_plan_runs \
	tests/test_clock \
	tests/test_host \
	tests/test_host_id \
	tests/test_engines \
	tests/test_trial \
	tests/test_vectors \
	tests/test_profile

check_PROGRAMS += $(unit_tests)
TESTS += $(unit_tests)
LDADD = $(CB_LIBS)
tests_test_host_LDADD = $(CB_LIBS) -ldl
# The profiler's test samples two loops of known content in its own process
# and in tests/profile_loop, which links an exported anchor first (a stripped
# copy keeps a symbol below the loops).
tests_test_profile_SOURCES = tests/test_profile.c tests/profile_loops.c tests/profile_loops.h
# Capstone too where it is not the host's decoder: the A64 classes are
# checked on every host that has it (core/profile/decode.h).
tests_test_profile_LDADD = $(CB_LIBS) $(CAPSTONE_LIBS)
check_PROGRAMS += tests/profile_loop
tests_profile_loop_SOURCES = tests/profile_anchor.c tests/profile_loops.c tests/profile_loop.c \
	tests/profile_loops.h
tests_profile_loop_LDADD =
tests_profile_loop_LDFLAGS = -Wl,--export-dynamic-symbol=cb_loop_anchor

cli_tests = \
	tests/cli_kcapi_qemu.sh \
	tests/cli_basics.sh \
	tests/cli_options.sh \
	tests/cli_bad_scenarios.sh \
	tests/cli_explain.sh \
	tests/cli_run_sim.sh \
	tests/cli_dependence.sh \
	tests/cli_output.sh \
	tests/cli_plan.sh \
	tests/cli_oneline.sh \
	tests/cli_runs_resume.sh \
	tests/cli_openssl.sh \
	tests/cli_interrupt.sh \
	tests/cli_faults.sh \
	tests/cli_masks.sh \
	tests/cli_two_builds.sh \
	tests/cli_default_place.sh \
	tests/cli_bad_results.sh \
	tests/cli_compressed.sh \
	tests/cli_kill_resume.sh \
	tests/cli_until.sh \
	tests/cli_plan_runs.sh \
	tests/cli_disk_full.sh \
	tests/cli_verify.sh \
	tests/cli_workers.sh \
	tests/cli_worker_timing.sh \
	tests/cli_go_worker.sh \
	tests/cli_rust_ring.sh \
	tests/cli_worker_check.sh \
	tests/cli_extern.sh \
	tests/cli_plugin.sh \
	tests/cli_java_jca.sh \
	tests/cli_commands.sh \
	tests/cli_man.sh \
	tests/cli_compare.sh \
	tests/cli_compare_engines.sh \
	tests/cli_short_trials.sh \
	tests/cli_layout.sh \
	tests/cli_export.sh \
	tests/cli_fleet.sh \
	tests/cli_fleet_slurm.sh \
	tests/cli_baseline.sh \
	tests/cli_hosts.sh \
	tests/cli_host_identity.sh \
	tests/cli_hosts_delta.sh \
	tests/cli_arm64_results.sh \
	tests/cli_csv.sh \
	tests/cli_plot.sh \
	tests/cli_plot_degenerate.sh \
	tests/cli_plot_keysize.sh \
	tests/cli_plot_extensions.sh \
	tests/cli_public_key.sh \
	tests/cli_references.sh \
	tests/cli_html.sh \
	tests/cli_explain_report.sh \
	tests/cli_mask_join.sh \
	tests/cli_claims.sh \
	tests/cli_claims_runs_auto.sh \
	tests/cli_collect.sh \
	tests/cli_noise.sh \
	tests/cli_golden.sh \
	tests/layering.sh \
	tests/cli_install.sh \
	tests/style.sh \
	tests/docs.sh \
	tests/peers_compare.sh \
	tests/tree_clean.sh

TESTS += $(cli_tests)
dist_check_SCRIPTS += $(cli_tests) tests/lib.sh tests/guest.sh

# The known-answer vectors are runtime data of `verify`: they install in
# $(pkgdatadir)/vectors (core/base/datadir.h).
vectorsdir = $(pkgdatadir)/vectors
dist_vectors_DATA = \
	tests/vectors/fips180-sha.vec \
	tests/vectors/fips202-sha3.vec \
	tests/vectors/gcm-spec.vec \
	tests/vectors/rfc1321-md5.vec \
	tests/vectors/rfc7693-blake2b.vec \
	tests/vectors/rfc8032-ed25519.vec \
	tests/vectors/rfc8439-chacha20-poly1305.vec \
	tests/vectors/sp800-38a-aes.vec \
	tests/vectors/wycheproof-ecdh-secp256r1.vec \
	tests/vectors/wycheproof-ecdh-secp384r1.vec \
	tests/vectors/wycheproof-ecdsa-secp256r1-sha256.vec \
	tests/vectors/wycheproof-ecdsa-secp384r1-sha384.vec \
	tests/vectors/wycheproof-ecdsa-secp521r1-sha512.vec \
	tests/vectors/wycheproof-ed25519.vec \
	tests/vectors/wycheproof-rsa-pkcs1-2048-sig-gen.vec \
	tests/vectors/wycheproof-rsa-pkcs1-3072-sig-gen.vec \
	tests/vectors/wycheproof-rsa-pkcs1-4096-sig-gen.vec \
	tests/vectors/wycheproof-rsa-pss-2048-sha256-mgf1-32.vec \
	tests/vectors/wycheproof-rsa-pss-3072-sha256-mgf1-32.vec \
	tests/vectors/wycheproof-rsa-pss-4096-sha256-mgf1-32.vec \
	tests/vectors/wycheproof-rsa-signature-2048-sha256.vec \
	tests/vectors/wycheproof-rsa-signature-3072-sha256.vec \
	tests/vectors/wycheproof-rsa-signature-4096-sha256.vec \
	tests/vectors/wycheproof-x25519.vec

EXTRA_DIST += tests/tap.h tests/vectors/README.md tests/scenarios tests/workers tests/golden \
	tests/explain tests/arm64

# Rewrite tests/golden/expected/ with what this build prints, after a change
# of output made on purpose; review the result with git diff before
# committing it (tests/cli_golden.sh says more).
golden-update: cryptobench
	top_srcdir='$(abs_top_srcdir)' CRYPTOBENCH='$(abs_top_builddir)/cryptobench' \
		$(SHELL) $(top_srcdir)/tests/cli_golden.sh --update
.PHONY: golden-update

# 64-bit ARM: a cross build run under qemu-user (tests/arm64.sh). On demand
# only, never in check or .ci/run: it installs the arm64 packages and takes
# many minutes (doc/arm64.md).
check-arm64:
	$(MAKE) $(AM_MAKEFLAGS) check TESTS=tests/arm64.sh
.PHONY: check-arm64
dist_check_SCRIPTS += tests/arm64.sh

# The sanitizer build of .ci/run runs the tests of built code, less two
# kinds: the source checks (format, cppcheck, layering, documents) say the
# same in every build; and the tests whose time goes to code the sanitizers
# do not see, which the plain suite runs: the software-emulated kernel guest
# (about 20 minutes under ASan), the workers of other runtimes (Go, Rust,
# Java, `worker check`: the C side of their protocol runs under the
# sanitizers in cli_workers.sh and cli_worker_timing.sh), stream mode over
# three libraries (every engine's calls run under them in cli_verify.sh and
# the scenario tests), and the installed copy (the same binary). CB_SANITIZED
# tells a test it runs there: cli_verify.sh then verifies the library
# engines alone, the workers' vectors being the plain suite's.
source_checks = tests/style.sh tests/layering.sh tests/docs.sh tests/peers_compare.sh tests/tree_clean.sh
sanitized_elsewhere = tests/cli_kcapi_qemu.sh tests/cli_go_worker.sh tests/cli_rust_ring.sh \
	tests/cli_java_jca.sh tests/cli_worker_check.sh tests/cli_openssl.sh tests/cli_install.sh
check-sanitized:
	CB_SANITIZED=1 $(MAKE) $(AM_MAKEFLAGS) check \
		TESTS='$(filter-out $(source_checks) $(sanitized_elsewhere),$(TESTS))'
.PHONY: check-sanitized
