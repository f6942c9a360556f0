/* attribution_sides.c: whose code a sample landed in, the crypto library's, the
 * runtime's or another's, by one table of patterns (attribution.h; the table is
 * described in doc/explain.md, "Reading the report").
 *
 * A function's name decides first where it has one (Go names its
 * functions, ring's are named, the allocator's are exported); else its
 * object's file name. The first rule that matches wins; nothing matched is
 * "other" (libc, the kernel, the harness, the worker's own code). */
#include "analysis/verdicts/attribution.h"

#include <stdio.h>
#include <string.h>

enum match {
	NAME_IS,       /* the function's name is PATTERN */
	NAME_PREFIX,   /* ... begins with it */
	NAME_PART,     /* ... holds it */
	OBJECT_IS,     /* the object's path is PATTERN ("JIT/anonymous code") */
	OBJECT_PREFIX, /* the object's file name begins with it */
};

static const struct side_rule {
	enum match match;
	const char *pattern;
	enum cb_attribution_side side;
} side_rules[] = {
    /* Go: the runtime (scheduler, allocator mallocgc, collector) and the
     * standard library's and x/crypto's packages. */
    {NAME_PREFIX, "runtime.", CB_SIDE_RUNTIME},
    {NAME_PREFIX, "crypto/", CB_SIDE_LIBRARY},
    {NAME_PREFIX, "golang.org/x/crypto/", CB_SIDE_LIBRARY},
    /* Rust's ring: its Rust code, mangled or not, and its assembly. */
    {NAME_PART, "ring::", CB_SIDE_LIBRARY},
    {NAME_PREFIX, "_ZN4ring", CB_SIDE_LIBRARY},
    {NAME_PREFIX, "ring_core_", CB_SIDE_LIBRARY},
    {NAME_PREFIX, "GFp_", CB_SIDE_LIBRARY},
    /* OpenSSL's code linked into a program (Node.js carries its own): its
     * assembly and its exported functions, by name, before the object. */
    {NAME_PART, "_block_data_order", CB_SIDE_LIBRARY},
    {NAME_PREFIX, "aesni_", CB_SIDE_LIBRARY},
    {NAME_PREFIX, "_aesni_", CB_SIDE_LIBRARY},
    {NAME_PREFIX, "aes_gcm_", CB_SIDE_LIBRARY},
    {NAME_PREFIX, "gcm_", CB_SIDE_LIBRARY},
    {NAME_PREFIX, "ossl_", CB_SIDE_LIBRARY},
    {NAME_PREFIX, "EVP_", CB_SIDE_LIBRARY},
    {NAME_PREFIX, "OPENSSL_", CB_SIDE_LIBRARY},
    {NAME_PREFIX, "ChaCha20_", CB_SIDE_LIBRARY},
    {NAME_PREFIX, "Poly1305_", CB_SIDE_LIBRARY},
    /* The C allocator, whoever calls it. */
    {NAME_IS, "malloc", CB_SIDE_RUNTIME},
    {NAME_IS, "free", CB_SIDE_RUNTIME},
    {NAME_IS, "calloc", CB_SIDE_RUNTIME},
    {NAME_IS, "realloc", CB_SIDE_RUNTIME},
    {NAME_PREFIX, "_int_malloc", CB_SIDE_RUNTIME},
    {NAME_PREFIX, "_int_free", CB_SIDE_RUNTIME},
    {NAME_IS, "malloc_consolidate", CB_SIDE_RUNTIME},
    /* Code made at run time: a JIT's, named by a perf map or not. */
    {OBJECT_IS, "JIT/anonymous code", CB_SIDE_RUNTIME},
    {OBJECT_IS, "perf map", CB_SIDE_RUNTIME},
    /* Runtimes: .NET, Java, CPython (and its own modules), Node.js. */
    {OBJECT_PREFIX, "libcoreclr", CB_SIDE_RUNTIME},
    {OBJECT_PREFIX, "libclrjit", CB_SIDE_RUNTIME},
    {OBJECT_PREFIX, "System.Private.CoreLib", CB_SIDE_RUNTIME},
    {OBJECT_PREFIX, "libjvm", CB_SIDE_RUNTIME},
    {OBJECT_PREFIX, "libpython", CB_SIDE_RUNTIME},
    {OBJECT_PREFIX, "python3", CB_SIDE_RUNTIME},
    {OBJECT_PREFIX, "_hashlib", CB_SIDE_RUNTIME}, /* CPython's glue to libcrypto */
    {OBJECT_PREFIX, "node", CB_SIDE_RUNTIME},
    {OBJECT_PREFIX, "libnode", CB_SIDE_RUNTIME},
    /* Crypto libraries, and the native shims that are only their interface. */
    {OBJECT_PREFIX, "libcrypto", CB_SIDE_LIBRARY},
    {OBJECT_PREFIX, "libssl", CB_SIDE_LIBRARY},
    {OBJECT_PREFIX, "libgcrypt", CB_SIDE_LIBRARY},
    {OBJECT_PREFIX, "libnettle", CB_SIDE_LIBRARY},
    {OBJECT_PREFIX, "libhogweed", CB_SIDE_LIBRARY},
    {OBJECT_PREFIX, "libsodium", CB_SIDE_LIBRARY},
    {OBJECT_PREFIX, "libmbedcrypto", CB_SIDE_LIBRARY},
    {OBJECT_PREFIX, "libwolfssl", CB_SIDE_LIBRARY},
    {OBJECT_PREFIX, "libbotan", CB_SIDE_LIBRARY},
    {OBJECT_PREFIX, "libgnutls", CB_SIDE_LIBRARY},
    {OBJECT_PREFIX, "libkcapi", CB_SIDE_LIBRARY},
    {OBJECT_PREFIX, "libSystem.Security.Cryptography.Native", CB_SIDE_LIBRARY},
    {OBJECT_PREFIX, "_rust.abi3", CB_SIDE_LIBRARY}, /* python-cryptography's own OpenSSL */
};

/* A path's file name; a name that is no path ("JIT/anonymous code", "perf
 * map", "[vdso]") whole. */
static const char *file_name(const char *path)
{
	const char *slash = path[0] == '/' ? strrchr(path, '/') : NULL;

	return slash ? slash + 1 : path;
}

static bool matches(const struct side_rule *rule, const char *object, const char *name)
{
	size_t len = strlen(rule->pattern);

	switch (rule->match) {
	case NAME_IS:
		return name && strcmp(name, rule->pattern) == 0;
	case NAME_PREFIX:
		return name && strncmp(name, rule->pattern, len) == 0;
	case NAME_PART:
		return name && strstr(name, rule->pattern);
	case OBJECT_IS:
		return strcmp(object, rule->pattern) == 0;
	case OBJECT_PREFIX:
		return strncmp(file_name(object), rule->pattern, len) == 0;
	}
	return false;
}

enum cb_attribution_side cb_attribution_side_of(const char *object, const char *name)
{
	for (size_t i = 0; i < sizeof side_rules / sizeof side_rules[0]; i++)
		if (matches(&side_rules[i], object ? object : "", name))
			return side_rules[i].side;
	return CB_SIDE_OTHER;
}

const char *cb_attribution_side_name(enum cb_attribution_side s)
{
	static const char *const names[CB_SIDE_COUNT] = {"library", "runtime", "other"};

	return s < CB_SIDE_COUNT ? names[s] : "other";
}

void cb_attribution_function_name(const char *object, uint64_t offset, const char *name,
                                  const char *hint, char *buf, size_t len)
{
	if (name)
		snprintf(buf, len, "%s", name);
	else if (hint)
		snprintf(buf, len, "%s+0x%llx (near %s)", file_name(object ? object : "?"),
		         (unsigned long long)offset, hint);
	else
		snprintf(buf, len, "%s+0x%llx", file_name(object ? object : "?"),
		         (unsigned long long)offset);
}
