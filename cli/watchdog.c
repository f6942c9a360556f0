/* watchdog.c: the last bound on loading a scenario.
 *
 * The sandbox's budget stops Lua code and anything that allocates; a library
 * function that does neither (a string pattern match with many wildcards on
 * a long subject) can still run for hours. Only the process can end that:
 * when it has used the CPU time allowed (ITIMER_PROF: the same bound on a
 * busy machine), the handler says where the script was and exits 2. */
#include "cli/cli.h"

#include <signal.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

#include "core/lua/sandbox.h"

static char fallback_place[512];
static unsigned limit_seconds;

static void append(char *buf, size_t *n, size_t len, const char *s)
{
	while (*s && *n + 1 < len)
		buf[(*n)++] = *s++;
	buf[*n] = '\0';
}

static void on_timeout(int sig)
{
	char msg[1024], digits[12];
	size_t n = cb_lua_active_place(msg, sizeof msg), d = 0;
	unsigned s = limit_seconds;

	(void)sig;
	if (n == 0)
		append(msg, &n, sizeof msg, fallback_place);
	append(msg, &n, sizeof msg, ": script stopped: still running after ");
	do
		digits[d++] = (char)('0' + s % 10);
	while ((s /= 10) > 0);
	while (d > 0 && n + 1 < sizeof msg)
		msg[n++] = digits[--d];
	msg[n] = '\0';
	append(msg, &n, sizeof msg,
	       " s of CPU time inside a library call (a pattern match on a long string?)\n");
	if (write(STDERR_FILENO, msg, n) < 0)
		_exit(CB_EXIT_USAGE);
	_exit(CB_EXIT_USAGE);
}

void cb_watchdog_start(unsigned seconds, const char *path)
{
	struct sigaction sa;
	struct itimerval timer = {.it_value = {.tv_sec = seconds}};

	limit_seconds = seconds;
	strncpy(fallback_place, path, sizeof fallback_place - 4);
	fallback_place[sizeof fallback_place - 4] = '\0';
	strcat(fallback_place, ":1");
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_timeout;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGPROF, &sa, NULL);
	setitimer(ITIMER_PROF, &timer, NULL);
}

void cb_watchdog_stop(void)
{
	struct itimerval off = {0};

	setitimer(ITIMER_PROF, &off, NULL);
	signal(SIGPROF, SIG_DFL);
}
