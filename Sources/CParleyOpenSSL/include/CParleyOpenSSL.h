// Thin wrappers over OpenSSL's libcrypto (Debian libssl-dev) EVP interface, for the two AES modes
// swift-crypto lacks: OCB (RFC 7253, EVP_aes_*_ocb) and the CTR and CMAC pieces EAX is built from.
// Each call is one-shot over memory and returns 1 on success, 0 on failure (a bad tag included).
#ifndef CPARLEY_OPENSSL_H
#define CPARLEY_OPENSSL_H
#include <stddef.h>
#include <stdint.h>

/// AES-OCB with a 16-byte tag. encrypt=1: `in` → `out` and writes `tag`; encrypt=0: checks `tag`.
int parley_aes_ocb(int encrypt, const uint8_t *key, size_t key_len, const uint8_t *nonce, size_t nonce_len,
                   const uint8_t *ad, size_t ad_len, const uint8_t *in, size_t in_len, uint8_t *out, uint8_t *tag);

/// AES-CTR with a 16-byte initial counter block (big-endian increment of the whole block).
int parley_aes_ctr(const uint8_t *key, size_t key_len, const uint8_t iv[16], const uint8_t *in, size_t in_len, uint8_t *out);

/// AES-CMAC (OMAC1) over `prefix` (16 bytes) followed by `data`, written to `mac` (16 bytes).
int parley_aes_cmac(const uint8_t *key, size_t key_len, const uint8_t prefix[16], const uint8_t *data, size_t data_len,
                    uint8_t mac[16]);

#endif
