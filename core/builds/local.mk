# Other builds of a library engine's library (a variant's `lib = FILE`),
# each loaded with its engine into a link-map namespace of its own, checked
# against the known answers, and identified from its ELF file.
libcbcore_a_SOURCES += \
	core/builds/libbuild.c core/builds/libbuild.h \
	core/builds/libraries.c core/builds/libraries.h \
	core/builds/default_object.c \
	core/builds/code_copy.c core/builds/code_copy.h \
	core/builds/buildenv.c core/builds/buildenv.h \
	core/builds/elf_info.c core/builds/elf_info.h \
	core/builds/placement.c core/builds/placement.h
