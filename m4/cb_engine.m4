# CB_ENGINE(NAME, DESCRIPTION, CHECK, [MORE])
# -------------------------------------------
# An optional in-process engine, core/engines/NAME.c, whose table is
# cb_engine_NAME, and MORE: the engine's other sources, by name without .c
# (its public-key half, NAME_pk: core/engine/engine.h). --with-NAME=check (default) builds it when CHECK finds the
# library, --with-NAME=yes fails when it does not, --without-NAME skips it.
# CHECK runs shell code that sets cb_found=yes and NAME_CFLAGS/NAME_LIBS
# (upper case).
#
# This line in configure.ac is the only place an engine is listed. For an
# engine that is found it:
#   - adds core/engines/NAME.o to LIBOBJS, which Makefile.am puts in
#     libcbcore.a (automake learns every engine source from AC_LIBSOURCE: it
#     distributes it and tracks its dependencies, found or not);
#   - adds NAME_CFLAGS to CB_ENGINE_CFLAGS and NAME_LIBS to CB_ENGINE_LIBS;
#   - adds CB_ENGINE_ENTRY(NAME) to CB_ENGINES_BUILT in config.h, the
#     X-macro core/engine/registry.c builds its list from.
# Every engine, found or not, is named in CB_ENGINES_CONFIGURED ("openssl
# gcrypt ...") and gets a row in the summary configure prints at the end.
AC_DEFUN([CB_ENGINE], [AC_REQUIRE([_CB_ENGINE_INIT])
  AC_ARG_WITH([$1],
    [AS_HELP_STRING([--with-$1], [build the $1 engine: $2 (default: check)])],
    [], [with_$1=check])
  cb_found=no
  cb_reason="not found"
  AS_IF([test "x$with_$1" = xno], [cb_reason="disabled (--without-$1)"], [$3])
  AS_IF([test "x$with_$1" = xyes && test "x$cb_found" != xyes],
    [AC_MSG_ERROR([--with-$1 was given, but $2 was not found (install its Debian -dev package, or see ./bootstrap)])])
  AS_IF([test "x$cb_found" = xyes],
    [AC_LIBOBJ([$1])
     m4_foreach_w([cb_more], [$4], [AC_LIBOBJ(cb_more)
     ])dnl
     cb_engines_built="$cb_engines_built CB_ENGINE_ENTRY($1)"
     CB_ENGINE_CFLAGS="$CB_ENGINE_CFLAGS ${]m4_toupper([$1])[_CFLAGS}"
     CB_ENGINE_LIBS="$CB_ENGINE_LIBS ${]m4_toupper([$1])[_LIBS}"
     cb_reason="yes"])
  cb_engines_configured="$cb_engines_configured${cb_engines_configured:+ }$1"
  cb_summary="$cb_summary
    m4_format([%-9s], [$1]) $cb_reason"
])

# _CB_ENGINE_INIT
# ---------------
# Once, before the first CB_ENGINE: the engine sources live in core/engines,
# and the lists are written to config.h when every CB_ENGINE has run.
AC_DEFUN([_CB_ENGINE_INIT], [
  AC_CONFIG_LIBOBJ_DIR([core/engines])
  cb_engines_built=""
  cb_engines_configured=""
  CB_ENGINE_CFLAGS=""
  CB_ENGINE_LIBS=""
  AC_SUBST([CB_ENGINE_CFLAGS])
  AC_SUBST([CB_ENGINE_LIBS])
  AC_CONFIG_COMMANDS_PRE([
    AC_DEFINE_UNQUOTED([CB_ENGINES_BUILT], [$cb_engines_built],
      [The optional engines built, as CB_ENGINE_ENTRY(name) X-macro entries.])
    AC_DEFINE_UNQUOTED([CB_ENGINES_CONFIGURED], ["$cb_engines_configured"],
      [Every optional engine configure.ac declares, built or not.])
  ])
])
