# The engines always built in, one file each behind core/engine/engine.h;
# the optional ones are configure's (core/local.mk: LIBOBJS).
libcbcore_a_SOURCES += core/engines/null.c core/engines/memcpy.c core/engines/sim.c

# Each in-process library engine configure found is also built as a shared
# object of its own, cryptobench-engine-NAME.so (configure's
# CB_ENGINE_OBJECTS): what a variant with `lib = FILE` loads into a link-map
# namespace of its own after that build of the library, so that the same
# engine code runs against it (core/builds/libbuild.h). It exports only the
# engine's table (engine-so.map) and carries, position-independent, the few
# core helpers an engine calls; unused sections are dropped, so that it
# needs no library but its engine's. It installs in $(pkglibdir)
# (core/base/datadir.h).
engine_object_core = core/engine/engine_options.c core/base/errbuf.c \
	core/algorithms/algorithm.c core/algorithms/pk.c core/algorithms/pk_sizes.c \
	core/algorithms/pk_keys.c core/algorithms/pk_scheme.c core/algorithms/reference.c \
	core/algorithms/input.c
# A sanitized build's flags are left out: the sanitizers' runtime is the
# base namespace's, which an object in a namespace of its own cannot reach.
engine_object_unsanitized = $(filter-out -fsanitize=% -fno-sanitize% -fsanitize-%,$(1))
engine_object_link = $(AM_V_CCLD)$(CC) $(DEFS) $(DEFAULT_INCLUDES) $(AM_CPPFLAGS) $(CPPFLAGS) \
	$(AM_CFLAGS) $(call engine_object_unsanitized,$(CFLAGS)) -fPIC -ffunction-sections \
	-fdata-sections -shared -Wl,--gc-sections -Wl,-z,defs -Wl,--as-needed \
	-Wl,--version-script=$(srcdir)/core/engines/engine-so.map \
	$(call engine_object_unsanitized,$(LDFLAGS)) -o $@ \
	$(filter %.c,$^) $(JANSSON_LIBS) -lm
EXTRA_DIST += core/engines/engine-so.map
CLEANFILES += $(CB_ENGINE_OBJECTS)
engine_objectsdir = $(pkglibdir)
engine_objects_DATA = $(CB_ENGINE_OBJECTS)
engine_object_deps = $(engine_object_core:%=$(srcdir)/%) $(srcdir)/core/engine/engine.h \
	$(srcdir)/core/engines/engine-so.map

core/engines/cryptobench-engine-openssl.so: $(srcdir)/core/engines/openssl.c \
		$(srcdir)/core/engines/openssl_pk.c $(engine_object_deps)
	$(engine_object_link) $(OPENSSL_LIBS) $(LIBCRYPTO_LIBS) -pthread
core/engines/cryptobench-engine-nettle.so: $(srcdir)/core/engines/nettle.c \
		$(srcdir)/core/engines/nettle_pk.c $(engine_object_deps)
	$(engine_object_link) $(NETTLE_LIBS) $(LIBCRYPTO_LIBS) -pthread
core/engines/cryptobench-engine-gcrypt.so: $(srcdir)/core/engines/gcrypt.c \
		$(srcdir)/core/engines/gcrypt_pk.c $(engine_object_deps)
	$(engine_object_link) $(GCRYPT_LIBS) $(LIBCRYPTO_LIBS) -pthread
core/engines/cryptobench-engine-sodium.so: $(srcdir)/core/engines/sodium.c \
		$(srcdir)/core/engines/sodium_pk.c $(engine_object_deps)
	$(engine_object_link) $(SODIUM_LIBS) $(LIBCRYPTO_LIBS) -pthread
core/engines/cryptobench-engine-mbedtls.so: $(srcdir)/core/engines/mbedtls.c \
		$(srcdir)/core/engines/mbedtls_pk.c $(engine_object_deps)
	$(engine_object_link) $(MBEDTLS_LIBS) $(LIBCRYPTO_LIBS) -pthread
core/engines/cryptobench-engine-wolfssl.so: $(srcdir)/core/engines/wolfssl.c \
		$(srcdir)/core/engines/wolfssl_pk.c $(engine_object_deps)
	$(engine_object_link) $(WOLFSSL_LIBS) $(LIBCRYPTO_LIBS) -pthread
core/engines/cryptobench-engine-gnutls.so: $(srcdir)/core/engines/gnutls.c \
		$(srcdir)/core/engines/gnutls_pk.c $(engine_object_deps)
	$(engine_object_link) $(GNUTLS_LIBS) $(LIBCRYPTO_LIBS) -pthread
