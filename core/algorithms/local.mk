# What a cell computes: the canonical algorithms and the public-key schemes
# (one row each), the fixed public keys, the generated input, and the
# reference every engine's output is checked against. Its three headers that
# core/engine/engine.h includes are installed for plug-ins (core/local.mk).
libcbcore_a_SOURCES += \
	core/algorithms/algorithm.c core/algorithms/algorithm.h \
	core/algorithms/pk_scheme.c core/algorithms/pk_scheme.h \
	core/algorithms/pk.c core/algorithms/pk.h core/algorithms/pk_sizes.c \
	core/algorithms/pk_reference.c \
	core/algorithms/pk_keys.c core/algorithms/pk_keys.h \
	core/algorithms/input.c core/algorithms/input.h \
	core/algorithms/reference.c core/algorithms/reference.h
