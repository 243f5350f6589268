// See include/CParleyOpenSSL.h. Ed448 (RFC 8032) and X448 (RFC 7748) through OpenSSL's EVP_PKEY interface: the
// curve arithmetic, clamping and point decoding are OpenSSL's own; this file only moves raw bytes in and out.
#include "CParleyOpenSSL.h"
#include "libcrypto.h"
#include <string.h>

enum { ED448_KEY = 57, ED448_SIG = 114, X448_KEY = 56 };

// EVP_DigestSign/Verify want a readable pointer even for an empty message.
static const uint8_t empty_message[1] = {0};

void parley_cleanse(void *bytes, size_t length) {
    // glibc's explicit_bzero, not libcrypto's OPENSSL_cleanse, so that clearing memory never loads libcrypto.
#if defined(__linux__)
    if (bytes != NULL && length > 0) explicit_bzero(bytes, length);
#else
    if (bytes != NULL && length > 0) OPENSSL_cleanse(bytes, length);
#endif
}

// The raw public key of a raw private key of `type`. OpenSSL frees (and clears) its copy of the private key.
static int public_from_private(int type, const uint8_t *private_key, size_t length, uint8_t *public_key) {
    EVP_PKEY *key = EVP_PKEY_new_raw_private_key(type, NULL, private_key, length);
    if (key == NULL) return 0;
    size_t out_len = length;
    int ok = EVP_PKEY_get_raw_public_key(key, public_key, &out_len) == 1 && out_len == length;
    EVP_PKEY_free(key);
    if (!ok) OPENSSL_cleanse(public_key, length);
    return ok;
}

int parley_ed448_public_key(const uint8_t private_key[57], uint8_t public_key[57]) {
    if (!parley_libcrypto_load()) return 0;
    return public_from_private(EVP_PKEY_ED448, private_key, ED448_KEY, public_key);
}

int parley_ed448_sign(const uint8_t private_key[57], const uint8_t *message, size_t message_len, uint8_t signature[114]) {
    if (!parley_libcrypto_load()) return 0;
    EVP_PKEY *key = EVP_PKEY_new_raw_private_key(EVP_PKEY_ED448, NULL, private_key, ED448_KEY);
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    int ok = 0;
    size_t sig_len = ED448_SIG;
    if (key == NULL || ctx == NULL) goto done;
    // No digest and no parameters: OpenSSL 3.0's pure Ed448 with an empty context string (RFC 8032 §5.2).
    if (EVP_DigestSignInit_ex(ctx, NULL, NULL, NULL, NULL, key, NULL) != 1) goto done;
    if (EVP_DigestSign(ctx, signature, &sig_len, message_len > 0 ? message : empty_message, message_len) != 1) goto done;
    ok = sig_len == ED448_SIG;
done:
    EVP_MD_CTX_free(ctx);
    EVP_PKEY_free(key);
    if (!ok) OPENSSL_cleanse(signature, ED448_SIG);
    return ok;
}

int parley_ed448_verify(const uint8_t public_key[57], const uint8_t *message, size_t message_len, const uint8_t signature[114]) {
    if (!parley_libcrypto_load()) return 0;
    EVP_PKEY *key = EVP_PKEY_new_raw_public_key(EVP_PKEY_ED448, NULL, public_key, ED448_KEY);
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    int ok = 0;
    if (key == NULL || ctx == NULL) goto done;
    if (EVP_DigestVerifyInit_ex(ctx, NULL, NULL, NULL, NULL, key, NULL) != 1) goto done;
    // 1 is a good signature; 0 a bad one and a negative value an error, both refused alike.
    ok = EVP_DigestVerify(ctx, signature, ED448_SIG, message_len > 0 ? message : empty_message, message_len) == 1;
done:
    EVP_MD_CTX_free(ctx);
    EVP_PKEY_free(key);
    return ok;
}

int parley_x448_public_key(const uint8_t private_key[56], uint8_t public_key[56]) {
    if (!parley_libcrypto_load()) return 0;
    return public_from_private(EVP_PKEY_X448, private_key, X448_KEY, public_key);
}

int parley_x448_shared_secret(const uint8_t private_key[56], const uint8_t peer_public_key[56], uint8_t shared[56]) {
    if (!parley_libcrypto_load()) return 0;
    EVP_PKEY *key = EVP_PKEY_new_raw_private_key(EVP_PKEY_X448, NULL, private_key, X448_KEY);
    EVP_PKEY *peer = EVP_PKEY_new_raw_public_key(EVP_PKEY_X448, NULL, peer_public_key, X448_KEY);
    EVP_PKEY_CTX *ctx = key == NULL ? NULL : EVP_PKEY_CTX_new_from_pkey(NULL, key, NULL);
    int ok = 0;
    size_t out_len = X448_KEY;
    uint8_t any = 0;
    if (ctx == NULL || peer == NULL) goto done;
    if (EVP_PKEY_derive_init(ctx) != 1) goto done;
    if (EVP_PKEY_derive_set_peer(ctx, peer) != 1) goto done;
    if (EVP_PKEY_derive(ctx, shared, &out_len) != 1 || out_len != X448_KEY) goto done;
    // RFC 7748 §6.2: an all-zero result means a low-order peer key. OpenSSL refuses it already; check anyway,
    // without branching on the secret bytes.
    for (size_t i = 0; i < X448_KEY; i++) any |= shared[i];
    ok = any != 0;
done:
    EVP_PKEY_CTX_free(ctx);
    EVP_PKEY_free(peer);
    EVP_PKEY_free(key);
    if (!ok) OPENSSL_cleanse(shared, X448_KEY);
    return ok;
}
