/* confdefs.h */
#define PACKAGE_NAME "cryptobench"
#define PACKAGE_TARNAME "cryptobench"
#define PACKAGE_VERSION "0.1.0"
#define PACKAGE_STRING "cryptobench 0.1.0"
#define PACKAGE_BUGREPORT ""
#define PACKAGE_URL ""
#define PACKAGE "cryptobench"
#define VERSION "0.1.0"
#define HAVE_STDIO_H 1
#define HAVE_STDLIB_H 1
#define HAVE_STRING_H 1
#define HAVE_INTTYPES_H 1
#define HAVE_STDINT_H 1
#define HAVE_STRINGS_H 1
#define HAVE_SYS_STAT_H 1
#define HAVE_SYS_TYPES_H 1
#define HAVE_UNISTD_H 1
#define STDC_HEADERS 1
#define GNUPLOT_PATH "/usr/bin/gnuplot"
#define CB_ENGINES_BUILT  CB_ENGINE_ENTRY(openssl) CB_ENGINE_ENTRY(gcrypt) CB_ENGINE_ENTRY(nettle) CB_ENGINE_ENTRY(sodium) CB_ENGINE_ENTRY(mbedtls) CB_ENGINE_ENTRY(wolfssl) CB_ENGINE_ENTRY(gnutls) CB_ENGINE_ENTRY(kcapi) CB_ENGINE_ENTRY(python_hashlib) CB_ENGINE_ENTRY(python_cryptography) CB_ENGINE_ENTRY(python_pycryptodome) CB_ENGINE_ENTRY(node_crypto) CB_ENGINE_ENTRY(dotnet) CB_ENGINE_ENTRY(sha256sum) CB_ENGINE_ENTRY(sha512sum) CB_ENGINE_ENTRY(md5sum) CB_ENGINE_ENTRY(b2sum) CB_ENGINE_ENTRY(openssl_dgst) CB_ENGINE_ENTRY(true)
#define CB_ENGINES_CONFIGURED "openssl gcrypt nettle sodium mbedtls wolfssl gnutls kcapi python_hashlib python_cryptography python_pycryptodome node_crypto dotnet sha256sum sha512sum md5sum b2sum openssl_dgst true"
