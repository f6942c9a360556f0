# The Lua binding: the sandbox and the scenario loader, the only code that
# includes Lua. Part of the core library; it builds a struct cb_scenario.
libcbcore_a_SOURCES += \
	core/lua/sandbox.c core/lua/sandbox.h \
	core/lua/load.c core/lua/load.h core/lua/check.c core/lua/fields.c \
	core/lua/externals.c \
	core/lua/derive_fields.c core/lua/claims.c core/lua/claims.h \
	core/lua/internal.h
