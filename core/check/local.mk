# Known answers: the vector files read and run through an engine, and the
# body of `cryptobench verify` (known answers and agreement between engines).
libcbcore_a_SOURCES += \
	core/check/vectors.c core/check/vectors_dir.c core/check/vectors_pk.c \
	core/check/vectors_run.c core/check/vectors.h \
	core/check/verify.c core/check/verify_pk.c core/check/verify.h
