/* libraries.c: the libraries whose engines can run another build, and the
 * default build of each (libraries.h). */
#include "config.h"

#include "core/builds/libraries.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "core/base/datadir.h"
#include "core/base/errbuf.h"
#include "core/builds/elf_info.h"
#include "core/builds/placement.h"
#include "core/check/vectors.h"

const struct cb_library cb_libraries[CB_N_LIBRARIES] = {
    {"openssl", "OpenSSL libcrypto", "libcrypto.so", "OpenSSL_version"},
    {"gcrypt", "libgcrypt", "libgcrypt.so", "gcry_check_version"},
    {"nettle", "nettle", "libnettle.so", "nettle_version_major"},
    {"sodium", "libsodium", "libsodium.so", "sodium_version_string"},
    {"mbedtls", "Mbed TLS libmbedcrypto", "libmbedcrypto.so", "mbedtls_version_get_string"},
    {"wolfssl", "wolfSSL", "libwolfssl.so", "wolfSSL_lib_version"},
    {"gnutls", "GnuTLS", "libgnutls.so", "gnutls_check_version"},
};

bool cb_library_row(const char *engine, size_t *row)
{
	for (size_t i = 0; i < CB_N_LIBRARIES; i++)
		if (strcmp(cb_libraries[i].engine, engine) == 0) {
			*row = i;
			return true;
		}
	return false;
}

bool cb_library_object(const char *engine, char *buf, size_t len)
{
	char dir[PATH_MAX];

	snprintf(buf, len, "%s/cryptobench-engine-%s.so",
	         cb_datadir(CB_DATA_ENGINE_OBJECTS, dir, sizeof dir), engine);
	return access(buf, R_OK) == 0;
}

const char *cb_library_applicable(char *buf, size_t len)
{
	char path[PATH_MAX];
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < CB_N_LIBRARIES && used < len; i++)
		if (cb_library_object(cb_libraries[i].engine, path, sizeof path))
			used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? ", " : "",
			                         cb_libraries[i].engine);
	return buf[0] ? buf : "none here";
}

bool cb_library_linked(size_t row, Dl_info *info)
{
	void *mark = dlsym(RTLD_DEFAULT, cb_libraries[row].version_symbol);

	return mark && dladdr(mark, info) && info->dli_fname;
}

bool cb_library_linked_crosses(const Dl_info *linked)
{
	struct cb_elf_info elf;
	char why[256];

	if (cb_elf_info_read(linked->dli_fname, &elf, why, sizeof why) != 0)
		return false; /* no code known: none across */
	return cb_placement_crosses(linked->dli_fbase, elf.code_lo, elf.code_hi);
}

int cb_library_known_answers(const struct cb_engine *engine, const char *file,
                             const char *vectors_dir, char *err, size_t err_len)
{
	struct cb_vector_set set;
	char why[512];
	int status = 0;

	if (cb_vectors_load_dir(vectors_dir, &set, err, err_len) != 0)
		return -1;
	for (size_t f = 0; f < set.count && status == 0; f++)
		for (size_t i = 0; i < set.files[f].count && status == 0; i++) {
			const struct cb_vector *v = &set.files[f].vectors[i];

			if (cb_vectors_run(engine, v, why, sizeof why) == CB_VECTOR_FAIL)
				status = cb_errorf(err, err_len,
				                   "%s fails its known answers: %s:%d (%s): %s",
				                   file, set.files[f].path, v->line, v->name, why);
		}
	cb_vectors_free_set(&set);
	return status;
}
