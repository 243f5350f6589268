#include "CParleyGcrypt.h"
#include <gcrypt.h>
#include <pthread.h>

static pthread_once_t initialised = PTHREAD_ONCE_INIT;
static int usable = 0;

// libgcrypt must be initialised once before any other call. Parley keeps no keys in libgcrypt's secure memory (a
// cipher handle lives only for one call), so that pool is not set up.
static void initialise(void) {
    if (!gcry_check_version(GCRYPT_VERSION)) return;
    if (!gcry_control(GCRYCTL_INITIALIZATION_FINISHED_P, 0)) {
        gcry_control(GCRYCTL_DISABLE_SECMEM, 0);
        gcry_control(GCRYCTL_INITIALIZATION_FINISHED, 0);
    }
    usable = 1;
}

int parley_gcry_aes_cfb(int encrypt, const uint8_t *key, size_t key_len, const uint8_t iv[16],
                        const uint8_t *in, size_t in_len, uint8_t *out) {
    pthread_once(&initialised, initialise);
    if (!usable) return 0;
    int algorithm;
    switch (key_len) {
    case 16: algorithm = GCRY_CIPHER_AES128; break;
    case 24: algorithm = GCRY_CIPHER_AES192; break;
    case 32: algorithm = GCRY_CIPHER_AES256; break;
    default: return 0;
    }
    gcry_cipher_hd_t handle;
    if (gcry_cipher_open(&handle, algorithm, GCRY_CIPHER_MODE_CFB, 0)) return 0;
    int ok = !gcry_cipher_setkey(handle, key, key_len) && !gcry_cipher_setiv(handle, iv, 16);
    if (ok && in_len > 0) {
        ok = encrypt ? !gcry_cipher_encrypt(handle, out, in_len, in, in_len)
                     : !gcry_cipher_decrypt(handle, out, in_len, in, in_len);
    }
    gcry_cipher_close(handle);
    return ok;
}
