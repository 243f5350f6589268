// The reference Argon2 (Debian libargon2-dev): the Argon2id S2K of RFC 9580 §3.7.1.4 (ParleyPGP).
#include <argon2.h>
