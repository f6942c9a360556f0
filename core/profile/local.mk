# The profiler (part of libcbcore.a): samplers in process (a CPU-time timer)
# and through ptrace, symbols through elfutils' libdwfl, instruction classes
# through the architecture's decoder (Zydis on x86-64, capstone on AArch64:
# one file each, decode.h), and the profile they make. It includes core/ and
# core/profile/ only; the runner is its caller.
libcbcore_a_SOURCES += \
	core/profile/samples.c core/profile/samples.h \
	core/profile/sampler.c core/profile/sampler.h \
	core/profile/tracer.c core/profile/tracer_refusal.c core/profile/tracer.h \
	core/profile/memory.c core/profile/memory.h \
	core/profile/regions.c core/profile/regions.h \
	core/profile/symbols.c core/profile/symbols.h \
	core/profile/decode.c core/profile/decode.h \
	core/profile/decode_x86.c core/profile/decode_a64.c \
	core/profile/profile.c core/profile/profile.h
