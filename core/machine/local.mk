# The machine: the clocks a trial is timed with, the host a run measured,
# and a host's identity across results files.
libcbcore_a_SOURCES += \
	core/machine/clock.c core/machine/clock.h \
	core/machine/host.c core/machine/host.h core/machine/host_arm.c core/machine/host_arm.h \
	core/machine/host_id.c core/machine/host_id.h
