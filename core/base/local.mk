# What every layer uses: filling a caller's error buffer, sizes and
# durations as people write them, where the data files are, and the tests'
# kill switch. It includes nothing but itself.
libcbcore_a_SOURCES += \
	core/base/errbuf.c core/base/errbuf.h \
	core/base/units.c core/base/units.h \
	core/base/datadir.c core/base/datadir.h \
	core/base/killpoint.c core/base/killpoint.h \
	core/base/file_alias.c core/base/file_alias.h
