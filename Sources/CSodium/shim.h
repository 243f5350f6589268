// libsodium (Debian libsodium-dev): the Ed25519 → X25519 identity-key conversion and the point checks behind it.
#include <sodium.h>
