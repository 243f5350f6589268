// See libcrypto.h: libcrypto loaded on the first call that needs it.
#include "libcrypto.h"
#if defined(__linux__)
#include <dlfcn.h>
#include <pthread.h>

#define PARLEY_LIBCRYPTO_DEFINE(name) __typeof__(name) *parley_libcrypto_##name = NULL;
PARLEY_LIBCRYPTO_FUNCTIONS(PARLEY_LIBCRYPTO_DEFINE)

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int loaded = 0;

static void load(void) {
    // The library is never closed: the pointers are used for the rest of the process.
    void *library = dlopen("libcrypto.so.3", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) return;
    int found = 1;
#define PARLEY_LIBCRYPTO_FIND(name) \
    parley_libcrypto_##name = (__typeof__(parley_libcrypto_##name))dlsym(library, #name); \
    if (parley_libcrypto_##name == NULL) found = 0;
    PARLEY_LIBCRYPTO_FUNCTIONS(PARLEY_LIBCRYPTO_FIND)
    loaded = found;
}

int parley_libcrypto_load(void) {
    pthread_once(&once, load);
    return loaded;
}
#endif
