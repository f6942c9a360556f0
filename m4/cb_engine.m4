# CB_ENGINE(NAME, DESCRIPTION, CHECK)
# ------------------------------------
# An optional engine: --with-NAME=check (default) builds it when CHECK finds
# the library, --with-NAME=yes fails when it does not, --without-NAME skips
# it. CHECK runs shell code that sets cb_found=yes and NAME_CFLAGS/NAME_LIBS
# (upper case). Defines HAVE_ENGINE_NAME and the conditional ENGINE_NAME, and
# adds a row to the summary configure prints at the end.
AC_DEFUN([CB_ENGINE], [
  AC_ARG_WITH([$1],
    [AS_HELP_STRING([--with-$1], [build the $1 engine: $2 (default: check)])],
    [], [with_$1=check])
  cb_found=no
  cb_reason="not found"
  AS_IF([test "x$with_$1" = xno], [cb_reason="disabled (--without-$1)"], [$3])
  AS_IF([test "x$with_$1" = xyes && test "x$cb_found" != xyes],
    [AC_MSG_ERROR([--with-$1 was given, but $2 was not found (install its Debian -dev package, or see ./bootstrap)])])
  AS_IF([test "x$cb_found" = xyes],
    [AC_DEFINE([HAVE_ENGINE_]m4_toupper([$1]), [1], [Define to build the $1 engine.])
     cb_reason="yes"])
  AM_CONDITIONAL([ENGINE_]m4_toupper([$1]), [test "x$cb_found" = xyes])
  cb_summary="$cb_summary
    m4_format([%-9s], [$1]) $cb_reason"
])
