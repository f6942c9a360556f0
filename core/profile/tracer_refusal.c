/* tracer_refusal.c: why the kernel refuses to let this process trace another. */
#include "core/profile/tracer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define CAP_SYS_PTRACE_BIT 19

/* The number after KEY in /proc/PID/status (PID 0: this process), in BASE;
 * -1 when absent. */
static long long status_field(pid_t pid, const char *key, int base)
{
	char path[64], line[256];
	long long value = -1;
	size_t key_len = strlen(key);
	FILE *f;

	if (pid)
		snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
	else
		snprintf(path, sizeof path, "/proc/self/status");
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof line, f))
		if (strncmp(line, key, key_len) == 0 && line[key_len] == ':') {
			char *end;
			value = strtoll(line + key_len + 1, &end, base);
			break;
		}
	fclose(f);
	return value;
}

static int yama_scope(void)
{
	FILE *f = fopen("/proc/sys/kernel/yama/ptrace_scope", "r");
	int scope = -1;

	if (f) {
		if (fscanf(f, "%d", &scope) != 1)
			scope = -1;
		fclose(f);
	}
	return scope;
}

void cb_tracer_refusal(pid_t pid, char *why, size_t why_len)
{
	char path[64];
	struct stat st;
	long long tracer = status_field(pid, "TracerPid", 10);
	long long caps = status_field(0, "CapEff", 16);
	long long seccomp = status_field(0, "Seccomp", 10);
	int scope = yama_scope();
	int has_cap = caps >= 0 && (caps >> CAP_SYS_PTRACE_BIT & 1);

	snprintf(path, sizeof path, "/proc/%d", (int)pid);
	if (tracer > 0)
		snprintf(why, why_len, "pid %d is traced already, by pid %lld", (int)pid, tracer);
	else if (scope == 3)
		snprintf(why, why_len, "the kernel's Yama ptrace_scope is 3: no process may trace");
	else if (scope == 2 && !has_cap)
		snprintf(why, why_len,
		         "the kernel's Yama ptrace_scope is 2: only a process with CAP_SYS_PTRACE "
		         "may trace, and this one lacks it");
	else if (scope == 1 && !has_cap)
		snprintf(why, why_len,
		         "the kernel's Yama ptrace_scope is 1: a process may trace only its own "
		         "descendants");
	else if (seccomp == 2)
		snprintf(why, why_len,
		         "a seccomp filter is in force on this process, as container runtimes "
		         "install by default, and forbids ptrace");
	else if (!has_cap && stat(path, &st) == 0 && st.st_uid != geteuid())
		snprintf(why, why_len,
		         "pid %d belongs to uid %u, this process runs as uid %u without "
		         "CAP_SYS_PTRACE",
		         (int)pid, (unsigned)st.st_uid, (unsigned)geteuid());
	else if (!has_cap)
		snprintf(why, why_len,
		         "this process lacks CAP_SYS_PTRACE (a container drops it) and pid %d is "
		         "not dumpable or runs with other credentials",
		         (int)pid);
	else
		snprintf(
		    why, why_len,
		    "a security module (SELinux, AppArmor) or a container's policy forbids it");
}
