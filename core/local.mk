# The measuring library (libcbcore.a): input, clocks, host, engines and their
# registry, plan and schedule, the runner, results files, reference and
# known-answer checks. It includes nothing from analysis/ or plots/.
libcbcore_a_SOURCES += \
	core/algorithm.c core/algorithm.h \
	core/errbuf.c core/errbuf.h \
	core/csv.c core/csv.h \
	core/killpoint.c core/killpoint.h \
	core/datadir.c core/datadir.h \
	core/units.c core/units.h \
	core/budget.c core/budget.h \
	core/input.c core/input.h \
	core/reference.c core/reference.h \
	core/pk.c core/pk.h core/pk_keys.c core/pk_keys.h core/pk_reference.c \
	core/pk_scheme.c core/pk_scheme.h \
	core/clock.c core/clock.h \
	core/host.c core/host.h core/host_arm.c core/host_arm.h core/host_id.c core/host_id.h \
	core/scenario.c core/scenario.h \
	core/plan.c core/plan.h \
	core/registry.c core/engine.h \
	core/runner.c core/runner.h core/explain.c core/explain.h \
	core/lines.c core/lines.h \
	core/results.c core/results_read.c core/results.h \
	core/results_scan.c core/results_scan.h \
	core/results_schema.c core/results_header.c core/results_schema.h \
	core/vectors.c core/vectors_pk.c core/vectors_run.c core/vectors.h \
	core/verify.c core/verify_pk.c core/verify.h \
	core/trial.c core/trial.h \
	core/engines/null.c core/engines/memcpy.c core/engines/sim.c \
	core/worker.c core/worker.h core/process.c core/process.h \
	core/command.c core/command.h \
	core/extern.c core/extern.h

# The source revision of the build, recorded in every results header
# (tool.build): `git describe` of the source tree when it is a checkout (a
# "-dirty" suffix for uncommitted changes), the package version otherwise.
# Regenerated on every make, rewritten only when it changes. BUILT_SOURCES
# covers only `all`, `check` and `install`; the object that includes it
# depends on it too, so that any target that links the core library (`demo`,
# `paper`, `fuzzers`, `cryptobench` alone) makes it first on a fresh clone.
BUILT_SOURCES += core/build.h
core/results_header.$(OBJEXT): core/build.h
CLEANFILES += core/build.h
core/build.h: FORCE
	$(AM_V_GEN)v=$$(git -C '$(srcdir)' describe --always --dirty --abbrev=12 2>/dev/null) || \
	  v='$(PACKAGE_VERSION)'; \
	mkdir -p core; printf '#define CB_BUILD "%s"\n' "$$v" >core/build.h.tmp; \
	if cmp -s core/build.h.tmp core/build.h; then rm -f core/build.h.tmp; \
	else mv core/build.h.tmp core/build.h; fi
.PHONY: FORCE
FORCE:

# The optional engines configure found: their objects are LIBOBJS
# (core/engines/NAME.o, one per CB_ENGINE line of configure.ac), compiled by
# automake's own rules with dependency tracking; automake distributes every
# engine source named there, found or not.
libcbcore_a_LIBADD = $(LIBOBJS)

EXTRA_DIST += core/engines/README.md

# The worker programs of other runtimes are runtime data: they install in
# $(pkgdatadir)/workers (core/datadir.h).
workersdir = $(pkgdatadir)/workers

# The workers make builds install where their kind of file belongs, each
# only when its build succeeded (a failed one leaves the engine unavailable,
# installed or not). The Go and Rust workers are native programs that only
# cryptobench runs: $(pkglibexecdir), the GNU place for programs run by
# other programs, each named after its engine (install-exec, as they depend
# on the machine). The Java classes and the .NET assembly are bytecode that
# a runtime reads, the same on every machine: architecture-independent data,
# beside the worker scripts in $(workersdir)/java and $(workersdir)/dotnet.
# core/datadir.h says how the program finds each, installed or not.
# uninstall removes the files and those two folders of its own.
install_worker_program = $(MKDIR_P) '$(DESTDIR)$(pkglibexecdir)' && \
	echo " $(INSTALL_PROGRAM) $$src '$(DESTDIR)$(pkglibexecdir)/$$name'" && \
	$(INSTALL_PROGRAM) "$$src" '$(DESTDIR)$(pkglibexecdir)/'"$$name"
install_worker_data = $(MKDIR_P) "$(DESTDIR)$(workersdir)/$$name" && \
	echo " $(INSTALL_DATA) $$files '$(DESTDIR)$(workersdir)/$$name'" && \
	$(INSTALL_DATA) $$files "$(DESTDIR)$(workersdir)/$$name"
uninstall_worker_data = rm -f "$(DESTDIR)$(workersdir)/$$name"/*; \
	rmdir "$(DESTDIR)$(workersdir)/$$name" 2>/dev/null || :
.PHONY: install-go-worker uninstall-go-worker install-rust-worker uninstall-rust-worker \
	install-java-worker uninstall-java-worker install-dotnet-worker uninstall-dotnet-worker
dist_workers_DATA = core/engines/workers/PROTOCOL.md core/engines/workers/worker.py \
	core/engines/workers/worker_pk.py core/engines/workers/worker.js \
	core/engines/workers/afalg.py

# The .NET worker: built by the SDK at make time when configure found dotnet,
# into the build tree, its intermediate files (obj/) too, so that the source
# tree is only read. A failed build is reported and leaves the engine
# unavailable; it never fails make.
dotnet_src = core/engines/workers/dotnet/Worker.cs core/engines/workers/dotnet/Pk.cs \
	core/engines/workers/dotnet/cryptobench-worker.csproj
EXTRA_DIST += $(dotnet_src)
if HAVE_DOTNET
dotnet_dll = core/engines/workers/dotnet/bin/cryptobench-worker.dll
all-local: $(dotnet_dll)
$(dotnet_dll): $(dotnet_src:%=$(srcdir)/%)
	$(AM_V_GEN)mkdir -p core/engines/workers/dotnet; \
	if DOTNET_CLI_TELEMETRY_OPTOUT=1 DOTNET_NOLOGO=1 $(DOTNET) build -c Release --nologo -v q \
	    -o '$(abs_builddir)/core/engines/workers/dotnet/bin' \
	    -p:BaseIntermediateOutputPath='$(abs_builddir)/core/engines/workers/dotnet/obj/' \
	    '$(srcdir)/core/engines/workers/dotnet/cryptobench-worker.csproj' \
	    >core/engines/workers/dotnet/build.log 2>&1; then :; else \
	  echo "warning: the .NET worker did not build (core/engines/workers/dotnet/build.log)" >&2; \
	  rm -f $@; fi
dotnet_files = $(dotnet_dll) $(dotnet_dll:.dll=.runtimeconfig.json) $(dotnet_dll:.dll=.deps.json)
install-data-local: install-dotnet-worker
uninstall-local: uninstall-dotnet-worker
install-dotnet-worker:
	@name=dotnet files='$(dotnet_files)'; \
	if test -f $(dotnet_dll); then $(install_worker_data); fi
uninstall-dotnet-worker:
	@name=dotnet; $(uninstall_worker_data)
endif

# The Go worker: built by go at make time when configure found it, into the
# build tree, offline and
# hermetic: GOPATH mode (no module is fetched), golang.org/x/crypto from
# $(GO_GOPATH) with the tag xcrypto when configure found it (else, or when
# that build fails, the standard library alone), the build cache in the
# build tree (root on a fresh machine has no cache folder of its own), no
# user settings (GOENV=off) and no cgo. A failed build is reported and
# leaves the engine unavailable; it never fails make.
go_src = core/engines/workers/go/worker.go core/engines/workers/go/xcrypto.go \
	core/engines/workers/go/pk.go core/engines/workers/go/go.mod
EXTRA_DIST += $(go_src)
if HAVE_GO
go_worker = core/engines/workers/go/bin/cryptobench-worker
go_env = GOCACHE='$(abs_builddir)/core/engines/workers/go/cache' GOENV=off GOFLAGS= \
	GOPROXY=off GOTOOLCHAIN=local GO111MODULE=off GOPATH='$(GO_GOPATH)' CGO_ENABLED=0
go_build = cd '$(srcdir)/core/engines/workers/go' && $(go_env) $(GO) build -trimpath \
	-o '$(abs_builddir)/$(go_worker)'
all-local: $(go_worker)
$(go_worker): $(go_src:%=$(srcdir)/%)
	$(AM_V_GEN)mkdir -p core/engines/workers/go/bin; \
	log=core/engines/workers/go/build.log; : >$$log; \
	if test -n '$(GO_TAGS)' && ($(go_build) -tags '$(GO_TAGS)' \
	    -ldflags '-X main.xcryptoVersion=$(GO_XCRYPTO_VERSION)' .) >>$$log 2>&1; then :; \
	elif ($(go_build) .) >>$$log 2>&1; then \
	  test -z '$(GO_TAGS)' || echo "warning: the Go worker built without golang.org/x/crypto ($$log)" >&2; \
	else \
	  echo "warning: the Go worker did not build ($$log)" >&2; rm -f $@; fi
install-exec-local: install-go-worker
uninstall-local: uninstall-go-worker
install-go-worker:
	@src=$(go_worker) name=go-crypto; if test -f $$src; then $(install_worker_program); fi
uninstall-go-worker:
	rm -f '$(DESTDIR)$(pkglibexecdir)/go-crypto'
endif

# The Rust worker (rust-ring): built by cargo at make time when configure
# found cargo and Debian's ring crate, offline and from that registry only
# (a CARGO_HOME of its own in the build tree says so), into the build tree
# (core/engines/rust_ring.c reads build.log there). Cargo.lock pins the
# crates (--locked). The C compiler flags of this build (a sanitizer build's)
# are kept from ring's C code, which cargo compiles and links itself. A
# failed build is reported and leaves the engine unavailable; it never fails
# make.
rust_dir = core/engines/workers/rust
rust_src = $(rust_dir)/Cargo.toml $(rust_dir)/Cargo.lock $(rust_dir)/build.rs \
	$(rust_dir)/src/main.rs $(rust_dir)/src/calls.rs $(rust_dir)/src/util.rs \
	$(rust_dir)/src/bench.rs $(rust_dir)/rustfmt.toml
EXTRA_DIST += $(rust_src)
if HAVE_RUST_RING
rust_bin = $(rust_dir)/target/release/cryptobench-rust-ring
all-local: $(rust_bin)
$(rust_bin): $(rust_src:%=$(srcdir)/%)
	$(AM_V_GEN)mkdir -p $(rust_dir)/cargo-home; \
	printf '[source.crates-io]\nreplace-with = "debian"\n[source.debian]\ndirectory = "%s"\n' \
	  '$(CARGO_REGISTRY)' >$(rust_dir)/cargo-home/config.toml; \
	if env -u CFLAGS -u CPPFLAGS -u LDFLAGS -u CC \
	    CARGO_HOME='$(abs_builddir)/$(rust_dir)/cargo-home' \
	    $(CARGO) build --release --offline --locked \
	    --manifest-path '$(srcdir)/$(rust_dir)/Cargo.toml' \
	    --target-dir '$(abs_builddir)/$(rust_dir)/target' >$(rust_dir)/build.log 2>&1; then \
	  touch $@; else \
	  echo "warning: the Rust worker did not build ($(rust_dir)/build.log)" >&2; \
	  rm -f $@; fi
install-exec-local: install-rust-worker
uninstall-local: uninstall-rust-worker
install-rust-worker:
	@src=$(rust_bin) name=rust-ring; if test -f $$src; then $(install_worker_program); fi
uninstall-rust-worker:
	rm -f '$(DESTDIR)$(pkglibexecdir)/rust-ring'
endif

# The JCA worker: built by javac at make time when configure found javac and
# java, into the build tree, from the JDK's own classes only. A failed build is reported and leaves the
# engine unavailable; it never fails make.
java_src = core/engines/workers/java/Worker.java core/engines/workers/java/Json.java \
	core/engines/workers/java/Pk.java
EXTRA_DIST += $(java_src)
if HAVE_JAVA
java_class = core/engines/workers/java/classes/Worker.class
all-local: $(java_class)
$(java_class): $(java_src:%=$(srcdir)/%)
	$(AM_V_GEN)mkdir -p core/engines/workers/java; \
	if $(JAVAC) -Xlint:all -Werror -d core/engines/workers/java/classes \
	    $(java_src:%='$(srcdir)/%') >core/engines/workers/java/build.log 2>&1; then :; else \
	  echo "warning: the Java worker did not build (core/engines/workers/java/build.log)" >&2; \
	  rm -rf core/engines/workers/java/classes; fi
install-data-local: install-java-worker
uninstall-local: uninstall-java-worker
install-java-worker:
	@name=java files='core/engines/workers/java/classes/*.class'; \
	if test -f $(java_class); then $(install_worker_data); fi
uninstall-java-worker:
	@name=java; $(uninstall_worker_data)
endif

clean-local:
	rm -rf core/engines/workers/dotnet/bin core/engines/workers/dotnet/build.log \
	  core/engines/workers/dotnet/obj \
	  core/engines/workers/go/bin core/engines/workers/go/cache core/engines/workers/go/build.log \
	  core/engines/workers/rust/target core/engines/workers/rust/cargo-home \
	  core/engines/workers/rust/build.log \
	  core/engines/workers/java/classes core/engines/workers/java/build.log

# The engine interface, for plug-ins built outside this tree
# (examples/plugin/): $(includedir)/cryptobench/engine.h and the header it
# includes, with their paths kept, and cryptobench-engine.pc for pkg-config.
cbincludedir = $(includedir)/cryptobench
cbinclude_HEADERS = core/engine.h
cbincludecoredir = $(includedir)/cryptobench/core
cbincludecore_HEADERS = core/algorithm.h core/pk.h core/pk_scheme.h
pkgconfigdir = $(libdir)/pkgconfig
pkgconfig_DATA = cryptobench-engine.pc
EXTRA_DIST += cryptobench-engine.pc.in examples/plugin/sha256.c examples/plugin/Makefile \
	examples/plugin/README.md
