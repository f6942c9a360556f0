/* tap.h: Test Anything Protocol output for automake's tap-driver.
 *
 * Each check prints "ok N - what" or "not ok N - what" with the file and line
 * of a failing check on a diagnostic line; tap_done() prints the plan and
 * returns the exit status. Header-only, so every test links nothing extra. */
#ifndef CB_TAP_H
#define CB_TAP_H

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static int tap_count;
static int tap_failed;

static inline int tap_check(int ok, const char *file, int line, const char *fmt, ...)
{
	va_list ap;
	tap_count++;
	if (!ok)
		tap_failed++;
	printf("%sok %d - ", ok ? "" : "not ", tap_count);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	if (!ok)
		printf("# failed at %s:%d\n", file, line);
	fflush(stdout);
	return ok;
}

/* ok(condition, "what it checks", ...) */
#define ok(cond, ...) tap_check(!!(cond), __FILE__, __LINE__, __VA_ARGS__)
static inline int tap_is_str(const char *got, const char *want, const char *file, int line,
                             const char *what)
{
	int same = got && want && strcmp(got, want) == 0;

	tap_check(same, file, line, "%s", what);
	if (!same)
		printf("#   got: '%s'\n#  want: '%s'\n", got ? got : "(null)",
		       want ? want : "(null)");
	return same;
}

/* is_str(got, expected, "what", ...) */
#define is_str(got, want, ...)                                                                     \
	do {                                                                                       \
		char tap_what_[512];                                                               \
		snprintf(tap_what_, sizeof tap_what_, __VA_ARGS__);                                \
		tap_is_str((got), (want), __FILE__, __LINE__, tap_what_);                          \
	} while (0)
/* is_num(got, expected, "what"): exact for integers */
#define is_num(got, want, ...)                                                                     \
	(tap_check((got) == (want), __FILE__, __LINE__, __VA_ARGS__) ||                            \
	 (printf("#   got: %.17g\n#  want: %.17g\n", (double)(got), (double)(want)), 0))
/* near(got, expected, tolerance, "what"): |got - expected| <= tolerance */
#define near(got, want, tol, ...)                                                                  \
	(tap_check(fabs((double)(got) - (double)(want)) <= (tol), __FILE__, __LINE__,              \
	           __VA_ARGS__) ||                                                                 \
	 (printf("#   got: %.17g\n#  want: %.17g (+/- %g)\n", (double)(got), (double)(want),       \
	         (double)(tol)),                                                                   \
	  0))
#define diag(...) (printf("# "), printf(__VA_ARGS__), printf("\n"))

static int tap_planned = -1;

/* The plan, fixed in advance: the first line a test prints. */
static inline void tap_plan(int n)
{
	tap_planned = n;
	printf("1..%d\n", n);
}

/* N test points skipped, each "ok K # SKIP REASON". */
#define tap_skip(n, ...)                                                                           \
	do {                                                                                       \
		for (int skip_i = 0; skip_i < (n); skip_i++) {                                     \
			printf("ok %d # SKIP ", ++tap_count);                                      \
			printf(__VA_ARGS__);                                                       \
			printf("\n");                                                              \
		}                                                                                  \
	} while (0)

/* The exit status (and the plan line at the end when none was given first). */
static inline int tap_done(void)
{
	if (tap_planned < 0)
		printf("1..%d\n", tap_count);
	else if (tap_count != tap_planned)
		printf("# planned %d test points, ran %d\n", tap_planned, tap_count);
	return tap_failed || (tap_planned >= 0 && tap_count != tap_planned) ? 1 : 0;
}

#endif
