#!/usr/bin/env python3
"""Regenerates Tests/ParleyCryptoTests/Vectors/ed25519-to-x25519.json.

NEEDS PyNaCl (`pip install pynacl`). It is kept only as a record of where the
known-answer vectors came from; the Swift tests read the committed JSON and
never run Python.

Every expected value comes from libsodium (as bundled in PyNaCl):
  crypto_sign_ed25519_sk_to_curve25519 / crypto_sign_ed25519_pk_to_curve25519.
The small pure-Python model below only *labels* each rejected key with the
first check it fails, and the script asserts that the model and libsodium
agree on accept/reject and on every output byte before writing anything.

Usage: python3 scripts/vectors/generate_ed25519_to_x25519.py > Tests/ParleyCryptoTests/Vectors/ed25519-to-x25519.json
"""
import hashlib
import json

import nacl
import nacl.bindings as sodium

P = 2**255 - 19
D = (-121665 * pow(121666, P - 2, P)) % P
L = 2**252 + 27742317777372353535851937790883648493
SQRT_M1 = pow(2, (P - 1) // 4, P)
Y8 = int.from_bytes(bytes.fromhex("26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05"), "little")


def det_bytes(label, n=32):
    """Deterministic 'random' bytes so the file regenerates byte for byte."""
    return hashlib.sha256(b"parley ed25519-to-x25519 vectors: " + label.encode()).digest()[:n]


def enc(y, sign=0):
    return (y | (sign << 255)).to_bytes(32, "little")


def inv(a):
    return pow(a, P - 2, P)


def recover_x(y, sign):
    """RFC 8032 5.1.3 decoding of x from y (y already reduced); None if not on the curve."""
    u, v = (y * y - 1) % P, (D * y * y + 1) % P
    x2 = u * inv(v) % P
    x = pow(x2, (P + 3) // 8, P)
    if (x * x - x2) % P:
        x = x * SQRT_M1 % P
    if (x * x - x2) % P:
        return None
    if (x & 1) != sign:
        x = (P - x) % P
    return x


# Extended coordinates (X, Y, Z, T), so scalar multiplication by L stays fast enough.
def padd(p, q):
    x1, y1, z1, t1 = p
    x2, y2, z2, t2 = q
    a = (y1 - x1) * (y2 - x2) % P
    b = (y1 + x1) * (y2 + x2) % P
    c = 2 * D * t1 * t2 % P
    d = 2 * z1 * z2 % P
    e, f, g, h = b - a, d - c, d + c, b + a
    return (e * f % P, g * h % P, f * g % P, e * h % P)


def pmul(k, p):
    r = (0, 1, 1, 0)
    while k:
        if k & 1:
            r = padd(r, p)
        p = padd(p, p)
        k >>= 1
    return r


def affine(p):
    zi = inv(p[2])
    return (p[0] * zi % P, p[1] * zi % P)


def ext(x, y):
    return (x, y, 1, x * y % P)


def encode_point(p):
    x, y = affine(p)
    return enc(y, x & 1)


def decode_point(pk):
    n = int.from_bytes(pk, "little")
    y, s = n & (2**255 - 1), n >> 255
    x = recover_x(y % P, s)
    return None if x is None else ext(x, y % P)


SMALL_ORDER_Y = {0, 1, P - 1, Y8, P - Y8, P, P + 1}  # libsodium's has_small_order list


def model(pk):
    """Which check rejects pk, in libsodium's order (plus our explicit canonical-y check)."""
    if len(pk) != 32:
        return "invalidLength", None
    n = int.from_bytes(pk, "little")
    y = n & (2**255 - 1)
    if y in SMALL_ORDER_Y:
        return "smallOrder", None
    if y >= P:
        return "nonCanonicalEncoding", None
    pt = decode_point(pk)
    if pt is None:
        return "notOnCurve", None
    if affine(pmul(L, pt)) != (0, 1):
        return "notInPrimeOrderSubgroup", None
    return "ok", ((1 + y) * inv(1 - y) % P).to_bytes(32, "little")


def libsodium_check(pk):
    """Which of libsodium's own checks fails; it has no canonical-y check and reduces y mod p."""
    if len(pk) != 32:
        return "length (PyNaCl binding)"
    y = int.from_bytes(pk, "little") & (2**255 - 1)
    if y in SMALL_ORDER_Y:
        return "ge25519_has_small_order"
    pt = decode_point(pk)
    if pt is None:
        return "ge25519_frombytes_negate_vartime"
    if affine(pmul(L, pt)) != (0, 1):
        return "ge25519_is_on_main_subgroup"
    return None


def libsodium(pk):
    try:
        return sodium.crypto_sign_ed25519_pk_to_curve25519(pk)
    except Exception:  # PyNaCl raises ValueError for bad length, RuntimeError for bad points
        return None


def checked(pk):
    """Model result, after asserting libsodium agrees exactly."""
    category, u = model(pk)
    got = libsodium(pk)
    if category == "ok":
        assert got == u, (pk.hex(), got, u)
    else:
        assert got is None, (pk.hex(), category, got.hex())
    return category, u


TORSION = []
for ty in (1, P - 1, 0, Y8, P - Y8):
    for s in (0, 1):
        tx = recover_x(ty, s)
        if tx is not None and ext(tx, ty) not in TORSION:
            TORSION.append(ext(tx, ty))
assert len(TORSION) == 8


def order(t):
    return next(k for k in (1, 2, 4, 8) if affine(pmul(k, t)) == (0, 1))


valid, accepted, invalid = [], [], []


def add_valid(name, seed):
    pk = sodium.crypto_sign_seed_keypair(seed)[0]
    xsk = sodium.crypto_sign_ed25519_sk_to_curve25519(seed + pk)
    h = bytearray(hashlib.sha512(seed).digest()[:32])
    h[0] &= 248
    h[31] &= 127
    h[31] |= 64
    assert xsk == bytes(h)
    category, xpk = checked(pk)
    assert category == "ok"
    assert sodium.crypto_scalarmult_base(xsk) == xpk
    valid.append({"name": name, "seed": seed.hex(), "ed25519Public": pk.hex(),
                  "x25519Private": xsk.hex(), "x25519Public": xpk.hex()})
    return pk


def add_accepted(name, pk):
    category, xpk = checked(pk)
    assert category == "ok", (name, category)
    accepted.append({"name": name, "ed25519Public": pk.hex(), "x25519Public": xpk.hex()})


def add_invalid(name, pk, expected=None):
    category, _ = checked(pk)
    assert category != "ok", name
    assert expected is None or category == expected, (name, category, expected)
    check = libsodium_check(pk)
    assert check is not None, name
    invalid.append({"name": name, "ed25519Public": pk.hex(), "error": category, "libsodiumCheck": check})


# --- valid key pairs -------------------------------------------------------
add_valid("seed all zero", bytes(32))
add_valid("seed all 0xff", b"\xff" * 32)
add_valid("seed 00 01 .. 1f", bytes(range(32)))
add_valid("seed one 0x01 byte", b"\x01" + bytes(31))
add_valid("RFC 8032 7.1 TEST 1", bytes.fromhex("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60"))
add_valid("RFC 8032 7.1 TEST 2", bytes.fromhex("4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb"))
add_valid("RFC 8032 7.1 TEST 3", bytes.fromhex("c5aa8df43f9f837bedb7442f31dcb7b166d38535076f094b85ce3a2e0b4458f7"))
add_valid("RFC 8032 7.1 TEST 1024", bytes.fromhex("f5e5767cf153319517630f226876b86c8160cc583bc013744c6bf255f5cc0ee5"))
add_valid("RFC 8032 7.1 TEST SHA(abc)", bytes.fromhex("833fe62409237b9d62ec77587520911e9a759cec1d19755b7da901b96dca3d42"))
valid_pks = [add_valid("deterministic random %02d" % i, det_bytes("seed %d" % i)) for i in range(40)]

# --- accepted public keys that no seed in this file produces ----------------
base = ext(recover_x(4 * inv(5) % P, 0), 4 * inv(5) % P)
add_accepted("Ed25519 base point B", encode_point(base))
add_accepted("negated base point -B (x sign bit set)", encode_point((P - base[0], base[1], 1, (P - base[3]) % P)))
for i in range(3):
    pk = bytearray.fromhex(valid[9 + i]["ed25519Public"])
    pk[31] ^= 0x80  # -P: still in the prime-order subgroup
    add_accepted("negation of deterministic random %02d (sign bit flipped)" % i, bytes(pk))
found = 0
for y in range(2, 10_000):  # smallest canonical y values that are accepted
    if model(enc(y))[0] == "ok":
        add_accepted("small y = %d" % y, enc(y))
        add_accepted("small y = %d, sign bit set" % y, enc(y, 1))
        found += 1
        if found == 1:
            break
for k in range(2, 10_000):  # largest canonical y values that are accepted
    if model(enc(P - k))[0] == "ok":
        add_accepted("large y = p - %d (just below p - 1)" % k, enc(P - k))
        break

# --- rejected: small order, every encoding --------------------------------
for t in TORSION:
    x, y = affine(t)
    add_invalid("small order %d point (x %s), canonical encoding" % (order(t), "odd" if x & 1 else "even"),
                encode_point(t), "smallOrder")
add_invalid("identity (0, 1) with x sign bit set", enc(1, 1), "smallOrder")
add_invalid("order 2 (0, -1) with x sign bit set", enc(P - 1, 1), "smallOrder")
add_invalid("order 4 y = 0 written as y = p", enc(P, 0), "smallOrder")
add_invalid("order 4 y = 0 written as y = p, sign bit set", enc(P, 1), "smallOrder")
add_invalid("identity y = 1 written as y = p + 1", enc(P + 1, 0), "smallOrder")
add_invalid("identity y = 1 written as y = p + 1, sign bit set", enc(P + 1, 1), "smallOrder")

# --- rejected: every other y >= p (libsodium rejects all 38 such encodings) -
for k in range(2, 19):
    for s in (0, 1):
        add_invalid("non-canonical y = p + %d, sign %d" % (k, s), enc(P + k, s), "nonCanonicalEncoding")

# --- rejected: not on the curve --------------------------------------------
add_invalid("y = 2 has no x", enc(2), "notOnCurve")
add_invalid("y = 2 has no x, sign bit set", enc(2, 1), "notOnCurve")
add_invalid("all 0xff except top bit (y = 2^255 - 1 is non-canonical)", b"\xff" * 31 + b"\x7f", "nonCanonicalEncoding")
i = 0
while sum(1 for e in invalid if e["name"].startswith("not a point")) < 6:
    candidate = det_bytes("non-point %d" % i)
    if model(candidate)[0] == "notOnCurve":
        add_invalid("not a point (deterministic bytes %d)" % i, candidate, "notOnCurve")
    i += 1

# --- rejected: valid point plus a torsion component ------------------------
for j in range(3):
    pt = decode_point(bytes.fromhex(valid_pks[j].hex()))
    for t in TORSION:
        if order(t) == 1:
            continue
        add_invalid("deterministic random %02d + small order %d point" % (j, order(t)),
                    encode_point(padd(pt, t)), "notInPrimeOrderSubgroup")
for y in range(3, 100):  # small y on the curve but outside the subgroup
    if model(enc(y))[0] == "notInPrimeOrderSubgroup":
        add_invalid("small y = %d is on the curve, outside the subgroup" % y, enc(y), "notInPrimeOrderSubgroup")
        break

# --- rejected: wrong length -------------------------------------------------
for n in (0, 1, 31, 33):
    add_invalid("length %d" % n, det_bytes("length %d" % n, 64)[:n] if n <= 32 else
                det_bytes("length %d" % n) + b"\x00" * (n - 32), "invalidLength")
add_invalid("64 bytes: libsodium secret key layout seed || public",
            bytes.fromhex(valid[0]["seed"]) + bytes.fromhex(valid[0]["ed25519Public"]), "invalidLength")

print(json.dumps({
    "description": "Ed25519 -> X25519 identity key conversion; expected values from libsodium "
                   "crypto_sign_ed25519_{sk,pk}_to_curve25519. 'error' names the first check that "
                   "rejects the key, in the order IdentityKeyConversion applies them; 'libsodiumCheck' "
                   "names the libsodium check that rejects it, as reproduced by the script's model since "
                   "libsodium only returns -1 (libsodium has no canonical-y check "
                   "and reduces y mod p, yet rejects every y >= p through its other checks).",
    "generator": "scripts/vectors/generate_ed25519_to_x25519.py (needs PyNaCl)",
    "libsodium": "bundled with PyNaCl %s" % nacl.__version__,
    "valid": valid,
    "acceptedPublicOnly": accepted,
    "invalid": invalid,
}, indent=1))
