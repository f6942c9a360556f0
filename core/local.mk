# The program: everything but main.c goes into libcryptobench.a, which the
# tests link too.
libcryptobench_a_SOURCES += \
	core/algorithm.c core/algorithm.h \
	core/errbuf.c core/errbuf.h \
	core/units.c core/units.h \
	core/input.c core/input.h \
	core/reference.c core/reference.h \
	core/clock.c core/clock.h \
	core/host.c core/host.h \
	core/lua_sandbox.c core/lua_sandbox.h \
	core/scenario.c core/scenario.h core/scenario_check.c core/scenario_fields.c \
	core/scenario_internal.h \
	core/plan.c core/plan.h \
	core/registry.c core/engine.h \
	core/runner.c core/runner.h \
	core/results.c core/results_read.c core/results.h \
	core/vectors.c core/vectors.h \
	core/verify.c core/verify.h \
	core/cli.c core/cli.h \
	core/cmd_run.c core/cmd_report.c core/cmd_engines.c core/cmd_verify.c core/cmd_input.c core/cmd_compare.c \
	core/trial.c core/trial.h \
	core/engines/null.c core/engines/memcpy.c core/engines/sim.c

if ENGINE_OPENSSL
libcryptobench_a_SOURCES += core/engines/openssl.c
endif
if ENGINE_GCRYPT
libcryptobench_a_SOURCES += core/engines/gcrypt.c
endif
if ENGINE_NETTLE
libcryptobench_a_SOURCES += core/engines/nettle.c
endif
if ENGINE_SODIUM
libcryptobench_a_SOURCES += core/engines/sodium.c
endif
if ENGINE_MBEDTLS
libcryptobench_a_SOURCES += core/engines/mbedtls.c
endif
if ENGINE_WOLFSSL
libcryptobench_a_SOURCES += core/engines/wolfssl.c
endif
if ENGINE_GNUTLS
libcryptobench_a_SOURCES += core/engines/gnutls.c
endif
if ENGINE_KCAPI
libcryptobench_a_SOURCES += core/engines/kcapi.c
endif

EXTRA_DIST += core/engines/README.md
