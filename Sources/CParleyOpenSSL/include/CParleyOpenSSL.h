// Thin wrappers over OpenSSL's libcrypto (Debian libssl-dev) EVP interface, for what swift-crypto lacks: the AES
// modes OCB (RFC 7253, EVP_aes_*_ocb) and the CTR and CMAC pieces EAX is built from (openssl.c), Ed448 and
// X448 (RFC 8032, RFC 7748) for RFC 9580's algorithms 28 and 26 (curve448.c).
// Each call is one-shot over memory and returns 1 on success, 0 on failure (a bad tag or signature included).
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

/// Overwrites `length` bytes at `bytes` in a way the compiler may not optimise away (OPENSSL_cleanse).
void parley_cleanse(void *bytes, size_t length);

/// The 57-byte Ed448 public key of a 57-byte private key (the RFC 8032 seed).
int parley_ed448_public_key(const uint8_t private_key[57], uint8_t public_key[57]);

/// A 114-byte pure Ed448 signature (RFC 8032 §5.2.6, empty context string) over `message`.
int parley_ed448_sign(const uint8_t private_key[57], const uint8_t *message, size_t message_len, uint8_t signature[114]);

/// 1 when `signature` is a valid pure Ed448 signature (empty context) over `message` by `public_key`, else 0.
int parley_ed448_verify(const uint8_t public_key[57], const uint8_t *message, size_t message_len, const uint8_t signature[114]);

/// The 56-byte X448 public key (u-coordinate) of a 56-byte private scalar (clamped by OpenSSL, RFC 7748 §5).
int parley_x448_public_key(const uint8_t private_key[56], uint8_t public_key[56]);

/// The 56-byte X448 shared secret of `private_key` and `peer_public_key`; 0 (and zeros) for a low-order peer key.
int parley_x448_shared_secret(const uint8_t private_key[56], const uint8_t peer_public_key[56], uint8_t shared[56]);

#endif
