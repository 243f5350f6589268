// libcrypto on first use. On Linux this target does not link libcrypto: the first call of one of its functions
// loads libcrypto.so.3 (Debian's libssl3) with dlopen and finds each function below, so a program that never
// needs OCB, EAX's pieces or the 448 curves (`parley-sop` with a v4 key, `parley-file`) never maps it — 1.4 MiB of
// its start-up (docs/PERFORMANCE.md, "A program for OpenPGP alone"). Elsewhere libcrypto is linked as usual.
// Include after OpenSSL's headers: the functions' own declarations give each pointer its type.
#ifndef CPARLEY_LIBCRYPTO_H
#define CPARLEY_LIBCRYPTO_H
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/params.h>

#if defined(__linux__)
#define PARLEY_LIBCRYPTO_FUNCTIONS(X) \
    X(EVP_CIPHER_CTX_ctrl) \
    X(EVP_CIPHER_CTX_free) \
    X(EVP_CIPHER_CTX_new) \
    X(EVP_CipherFinal_ex) \
    X(EVP_CipherInit_ex) \
    X(EVP_CipherUpdate) \
    X(EVP_DigestSign) \
    X(EVP_DigestSignInit_ex) \
    X(EVP_DigestVerify) \
    X(EVP_DigestVerifyInit_ex) \
    X(EVP_EncryptFinal_ex) \
    X(EVP_EncryptInit_ex) \
    X(EVP_EncryptUpdate) \
    X(EVP_MAC_CTX_free) \
    X(EVP_MAC_CTX_new) \
    X(EVP_MAC_fetch) \
    X(EVP_MAC_final) \
    X(EVP_MAC_free) \
    X(EVP_MAC_init) \
    X(EVP_MAC_update) \
    X(EVP_MD_CTX_free) \
    X(EVP_MD_CTX_new) \
    X(EVP_PKEY_CTX_free) \
    X(EVP_PKEY_CTX_new_from_pkey) \
    X(EVP_PKEY_derive) \
    X(EVP_PKEY_derive_init) \
    X(EVP_PKEY_derive_set_peer) \
    X(EVP_PKEY_free) \
    X(EVP_PKEY_get_raw_public_key) \
    X(EVP_PKEY_new_raw_private_key) \
    X(EVP_PKEY_new_raw_public_key) \
    X(EVP_aes_128_ctr) \
    X(EVP_aes_128_ocb) \
    X(EVP_aes_192_ctr) \
    X(EVP_aes_192_ocb) \
    X(EVP_aes_256_ctr) \
    X(EVP_aes_256_ocb) \
    X(OPENSSL_cleanse) \
    X(OSSL_PARAM_construct_end) \
    X(OSSL_PARAM_construct_utf8_string)

#define PARLEY_LIBCRYPTO_POINTER(name) extern __typeof__(name) *parley_libcrypto_##name;
PARLEY_LIBCRYPTO_FUNCTIONS(PARLEY_LIBCRYPTO_POINTER)
#undef PARLEY_LIBCRYPTO_POINTER

/// 1 once libcrypto is loaded and every function above found (the first call loads it, once per process); 0 if it
/// cannot be, and then every parley_ function fails as it does on a bad key (returns 0).
int parley_libcrypto_load(void);

// From here on, each call in this target goes through its pointer.
#define EVP_CIPHER_CTX_ctrl (*parley_libcrypto_EVP_CIPHER_CTX_ctrl)
#define EVP_CIPHER_CTX_free (*parley_libcrypto_EVP_CIPHER_CTX_free)
#define EVP_CIPHER_CTX_new (*parley_libcrypto_EVP_CIPHER_CTX_new)
#define EVP_CipherFinal_ex (*parley_libcrypto_EVP_CipherFinal_ex)
#define EVP_CipherInit_ex (*parley_libcrypto_EVP_CipherInit_ex)
#define EVP_CipherUpdate (*parley_libcrypto_EVP_CipherUpdate)
#define EVP_DigestSign (*parley_libcrypto_EVP_DigestSign)
#define EVP_DigestSignInit_ex (*parley_libcrypto_EVP_DigestSignInit_ex)
#define EVP_DigestVerify (*parley_libcrypto_EVP_DigestVerify)
#define EVP_DigestVerifyInit_ex (*parley_libcrypto_EVP_DigestVerifyInit_ex)
#define EVP_EncryptFinal_ex (*parley_libcrypto_EVP_EncryptFinal_ex)
#define EVP_EncryptInit_ex (*parley_libcrypto_EVP_EncryptInit_ex)
#define EVP_EncryptUpdate (*parley_libcrypto_EVP_EncryptUpdate)
#define EVP_MAC_CTX_free (*parley_libcrypto_EVP_MAC_CTX_free)
#define EVP_MAC_CTX_new (*parley_libcrypto_EVP_MAC_CTX_new)
#define EVP_MAC_fetch (*parley_libcrypto_EVP_MAC_fetch)
#define EVP_MAC_final (*parley_libcrypto_EVP_MAC_final)
#define EVP_MAC_free (*parley_libcrypto_EVP_MAC_free)
#define EVP_MAC_init (*parley_libcrypto_EVP_MAC_init)
#define EVP_MAC_update (*parley_libcrypto_EVP_MAC_update)
#define EVP_MD_CTX_free (*parley_libcrypto_EVP_MD_CTX_free)
#define EVP_MD_CTX_new (*parley_libcrypto_EVP_MD_CTX_new)
#define EVP_PKEY_CTX_free (*parley_libcrypto_EVP_PKEY_CTX_free)
#define EVP_PKEY_CTX_new_from_pkey (*parley_libcrypto_EVP_PKEY_CTX_new_from_pkey)
#define EVP_PKEY_derive (*parley_libcrypto_EVP_PKEY_derive)
#define EVP_PKEY_derive_init (*parley_libcrypto_EVP_PKEY_derive_init)
#define EVP_PKEY_derive_set_peer (*parley_libcrypto_EVP_PKEY_derive_set_peer)
#define EVP_PKEY_free (*parley_libcrypto_EVP_PKEY_free)
#define EVP_PKEY_get_raw_public_key (*parley_libcrypto_EVP_PKEY_get_raw_public_key)
#define EVP_PKEY_new_raw_private_key (*parley_libcrypto_EVP_PKEY_new_raw_private_key)
#define EVP_PKEY_new_raw_public_key (*parley_libcrypto_EVP_PKEY_new_raw_public_key)
#define EVP_aes_128_ctr (*parley_libcrypto_EVP_aes_128_ctr)
#define EVP_aes_128_ocb (*parley_libcrypto_EVP_aes_128_ocb)
#define EVP_aes_192_ctr (*parley_libcrypto_EVP_aes_192_ctr)
#define EVP_aes_192_ocb (*parley_libcrypto_EVP_aes_192_ocb)
#define EVP_aes_256_ctr (*parley_libcrypto_EVP_aes_256_ctr)
#define EVP_aes_256_ocb (*parley_libcrypto_EVP_aes_256_ocb)
#define OPENSSL_cleanse (*parley_libcrypto_OPENSSL_cleanse)
#define OSSL_PARAM_construct_end (*parley_libcrypto_OSSL_PARAM_construct_end)
#define OSSL_PARAM_construct_utf8_string (*parley_libcrypto_OSSL_PARAM_construct_utf8_string)
#else
static inline int parley_libcrypto_load(void) { return 1; }
#endif
#endif
