/* java_jca.c: java-jca through the JDK's JCA providers (SUN's MessageDigest,
 * SunJCE's Cipher), a worker engine (see core/engine/process.h and
 * core/engines/workers/PROTOCOL.md). make compiles the worker with javac
 * when configure found javac and java; without them the engine is
 * unavailable and says why. */
#include "config.h"

#include "core/base/datadir.h"
#include "core/engine/process.h"

#include <stdio.h>
#include <unistd.h>

static int find_java(struct cb_process_engine *pe, char *why, size_t why_len)
{
	const char *classes = cb_datadir(CB_DATA_JAVA_WORKER, pe->script, sizeof pe->script);
	char class_file[sizeof pe->script + 16];

	snprintf(class_file, sizeof class_file, "%s/Worker.class", classes);
	if (cb_process_override(pe))
		return cb_process_start(pe, why, why_len);
	if (JAVA_PATH[0] == '\0' || access(class_file, R_OK) != 0) {
		cb_process_not_built(why, why_len, "Java", class_file,
		                     "`javac` and `java` were not both found");
		return -1;
	}
	pe->argv[0] = JAVA_PATH;
	/* only lets the worker read the intrinsics' flags for its hello */
	pe->argv[1] = "-XX:+UnlockDiagnosticVMOptions";
	pe->argv[2] = "-cp";
	pe->argv[3] = classes;
	pe->argv[4] = "Worker";
	pe->argv[5] = NULL;
	return cb_process_start(pe, why, why_len);
}

CB_PROCESS_ENGINE(java_jca, "java-jca", find_java, NULL);
