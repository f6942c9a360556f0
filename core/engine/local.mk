# The engine plumbing: the interface every engine implements (engine.h), the
# registry and the one way to open an engine, engines in worker processes
# and command engines, and the gate external workers and plug-ins pass. The
# engines themselves are core/engines/.
libcbcore_a_SOURCES += \
	core/engine/engine.h core/engine/registry.c core/engine/engine_options.c \
	core/engine/worker.c core/engine/worker.h \
	core/engine/process.c core/engine/process.h \
	core/engine/command.c core/engine/command.h \
	core/engine/extern.c core/engine/extern.h
