// See include/CParleyOpenSSL.h. Only EVP calls: the cipher arithmetic is OpenSSL's own.
#include "CParleyOpenSSL.h"
#include "libcrypto.h"

static const EVP_CIPHER *ocb_cipher(size_t key_len) {
    switch (key_len) {
    case 16: return EVP_aes_128_ocb();
    case 24: return EVP_aes_192_ocb();
    case 32: return EVP_aes_256_ocb();
    default: return NULL;
    }
}

static const EVP_CIPHER *ctr_cipher(size_t key_len) {
    switch (key_len) {
    case 16: return EVP_aes_128_ctr();
    case 24: return EVP_aes_192_ctr();
    case 32: return EVP_aes_256_ctr();
    default: return NULL;
    }
}

static const char *cbc_name(size_t key_len) {
    switch (key_len) {
    case 16: return "AES-128-CBC";
    case 24: return "AES-192-CBC";
    case 32: return "AES-256-CBC";
    default: return NULL;
    }
}

// One OCB call over memory: `in` to `out` (the same length), the 16-byte tag written (encrypt) or checked
// (decrypt). OCB takes its tag length (and, decrypting, the tag) before the key.
static int ocb(const EVP_CIPHER *cipher, int encrypt, const uint8_t *key, const uint8_t *nonce,
                size_t nonce_len, const uint8_t *ad, size_t ad_len, const uint8_t *in, size_t in_len, uint8_t *out,
                uint8_t *tag) {
    if (cipher == NULL || in_len > INT32_MAX || ad_len > INT32_MAX) return 0;
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    if (ctx == NULL) return 0;
    int ok = 0, len = 0;
    if (EVP_CipherInit_ex(ctx, cipher, NULL, NULL, NULL, encrypt) != 1) goto done;
    if (EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_IVLEN, (int)nonce_len, NULL) != 1) goto done;
    if (EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, 16, encrypt ? NULL : (void *)tag) != 1) goto done;
    if (EVP_CipherInit_ex(ctx, NULL, NULL, key, nonce, encrypt) != 1) goto done;
    if (ad_len > 0 && EVP_CipherUpdate(ctx, NULL, &len, ad, (int)ad_len) != 1) goto done;
    int written = 0;
    if (in_len > 0) {
        if (EVP_CipherUpdate(ctx, out, &len, in, (int)in_len) != 1) goto done;
        written = len;
    }
    if (EVP_CipherFinal_ex(ctx, out + written, &len) != 1) goto done;
    if (encrypt && EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, 16, tag) != 1) goto done;
    ok = 1;
done:
    EVP_CIPHER_CTX_free(ctx);
    return ok;
}

int parley_aes_ocb(int encrypt, const uint8_t *key, size_t key_len, const uint8_t *nonce, size_t nonce_len,
                   const uint8_t *ad, size_t ad_len, const uint8_t *in, size_t in_len, uint8_t *out, uint8_t *tag) {
    if (!parley_libcrypto_load()) return 0;
    if (nonce_len < 1 || nonce_len > 15) return 0;
    return ocb(ocb_cipher(key_len), encrypt, key, nonce, nonce_len, ad, ad_len, in, in_len, out, tag);
}

int parley_aes_ctr(const uint8_t *key, size_t key_len, const uint8_t iv[16], const uint8_t *in, size_t in_len, uint8_t *out) {
    if (!parley_libcrypto_load()) return 0;
    const EVP_CIPHER *cipher = ctr_cipher(key_len);
    if (cipher == NULL || in_len > INT32_MAX) return 0;
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    if (ctx == NULL) return 0;
    int ok = 0, len = 0;
    if (EVP_EncryptInit_ex(ctx, cipher, NULL, key, iv) != 1) goto done;
    if (in_len > 0 && EVP_EncryptUpdate(ctx, out, &len, in, (int)in_len) != 1) goto done;
    if (EVP_EncryptFinal_ex(ctx, out + len, &len) != 1) goto done;
    ok = 1;
done:
    EVP_CIPHER_CTX_free(ctx);
    return ok;
}

int parley_aes_cmac(const uint8_t *key, size_t key_len, const uint8_t prefix[16], const uint8_t *data, size_t data_len,
                    uint8_t mac[16]) {
    if (!parley_libcrypto_load()) return 0;
    const char *name = cbc_name(key_len);
    if (name == NULL) return 0;
    EVP_MAC *algorithm = EVP_MAC_fetch(NULL, "CMAC", NULL);
    if (algorithm == NULL) return 0;
    EVP_MAC_CTX *ctx = EVP_MAC_CTX_new(algorithm);
    int ok = 0;
    size_t out_len = 0;
    OSSL_PARAM params[2];
    params[0] = OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_CIPHER, (char *)name, 0);
    params[1] = OSSL_PARAM_construct_end();
    if (ctx == NULL) goto done;
    if (EVP_MAC_init(ctx, key, key_len, params) != 1) goto done;
    if (EVP_MAC_update(ctx, prefix, 16) != 1) goto done;
    if (data_len > 0 && EVP_MAC_update(ctx, data, data_len) != 1) goto done;
    if (EVP_MAC_final(ctx, mac, &out_len, 16) != 1 || out_len != 16) goto done;
    ok = 1;
done:
    EVP_MAC_CTX_free(ctx);
    EVP_MAC_free(algorithm);
    return ok;
}
