// AES in CFB-128 mode through libgcrypt (Debian libgcrypt20-dev), GnuPG's own cipher library, for OpenPGP's SEIPD v1.
// swift-crypto's AES._CFB (BoringSSL) calls the block cipher once per 16 bytes; libgcrypt runs CFB decryption eight
// blocks at a time with AES-NI (about 14 times faster here) and CFB encryption in a tighter loop
// (docs/PERFORMANCE.md, OpenPGP). One call is one-shot over memory.
#ifndef CPARLEY_GCRYPT_H
#define CPARLEY_GCRYPT_H
#include <stddef.h>
#include <stdint.h>

/// AES-CFB-128 (full-block feedback, no OpenPGP resynchronisation) of `in` into `out` (as long; may be `in`) under
/// `key` (16, 24 or 32 bytes) from the 16-byte `iv`. encrypt=1 encrypts, encrypt=0 decrypts. Returns 1 on success,
/// 0 when the key length is not one of AES's or libgcrypt refused.
int parley_gcry_aes_cfb(int encrypt, const uint8_t *key, size_t key_len, const uint8_t iv[16],
                        const uint8_t *in, size_t in_len, uint8_t *out);

#endif
