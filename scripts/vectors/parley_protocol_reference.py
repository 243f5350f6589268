#!/usr/bin/env python3
"""Independent reference implementation of the Parley protocol, version 1.

Written ONLY from docs/PROTOCOL.md (and docs/FORMATS.md §2 for the padding), without
reading the Swift sources, so that agreement with the Swift implementation shows the
specification is exact. Section numbers in comments ("§5.4") refer to docs/PROTOCOL.md;
"FORMATS §2" refers to docs/FORMATS.md.

Primitives come from Python's `cryptography` package (X25519, Ed25519, HKDF, HMAC,
AES-GCM, ML-KEM-768). The Ed25519 -> X25519 public-key map is done with Python ints.

Usage:
    python3 scripts/vectors/parley_protocol_reference.py selftest
    python3 scripts/vectors/parley_protocol_reference.py generate   # writes python-reference.json
    python3 scripts/vectors/parley_protocol_reference.py check [FILE.json ...]
                                     # recomputes the Swift vectors, prints every mismatch

The Swift tests never run this script; it is committed as the provenance of
Tests/ParleyProtocolTests/Vectors/python-reference.json.
"""
from __future__ import annotations

import copy
import hashlib
import hmac
import struct
import sys

from cryptography.exceptions import InvalidSignature, InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import mlkem
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF as _HKDF


class ProtocolError(Exception):
    """Every rejection; `.code` is the spec's error name where it gives one."""

    def __init__(self, code, detail=""):
        super().__init__(f"{code}: {detail}" if detail else code)
        self.code = code


# ---------------------------------------------------------------------------
# §2 Constants
# ---------------------------------------------------------------------------
VERSION = 0x01
TYPE_MESSAGE, TYPE_PREKEY, TYPE_GROUP, TYPE_DISTRIBUTION = 0x01, 0x02, 0x03, 0x04
SPK_SIGNATURE_PREFIX = b"\x05"
PQSPK_SIGNATURE_PREFIX = b"\x0a"
PQXDH_INFO = b"Parley_PQXDH_X25519_SHA-256_ML-KEM-768"
RATCHET_INFO = b"Parley_Ratchet_v1"
MESSAGE_KEYS_INFO = b"Parley_MessageKeys_v1"
SENDER_KEY_INFO = b"Parley_SenderKey_v1"
NO_OPK = 0xFFFFFFFF
MAX_SKIP = 256
MAX_STORED_SKIPPED = 2000
MAX_ARCHIVED_STATES = 40
MAX_SENDER_KEY_STATES = 5
MAX_PADDED = 1_048_576
MAX_PLAINTEXT = MAX_PADDED - 5
KEM_CT_LEN = 1088
KEM_PK_LEN = 1184
MIN_C = 64 + 16                 # §6: smallest padded plaintext + tag
MAX_C = MAX_PADDED + 16         # §6: largest padded plaintext + tag


# ---------------------------------------------------------------------------
# §1 Notation and primitives
# ---------------------------------------------------------------------------
def u32(n):
    return struct.pack(">I", n)


def u64(n):
    return struct.pack(">Q", n)


def zeros(n):
    return b"\x00" * n


def ff(n):
    return b"\xff" * n


def hkdf(salt, ikm, info, length):
    """§1 HKDF-SHA256 (RFC 5869, extract then expand)."""
    return _HKDF(algorithm=hashes.SHA256(), length=length, salt=salt, info=info).derive(ikm)


def hmac_sha256(key, data):
    """§1 HMAC-SHA256."""
    return hmac.new(key, data, hashlib.sha256).digest()


def x25519_public(private):
    """§1 the public key of a 32-byte X25519 private key (clamped inside X25519)."""
    return X25519PrivateKey.from_private_bytes(private).public_key().public_bytes_raw()


def dh(private, public):
    """§1 DH = X25519; an all-zero output aborts (low-order point)."""
    try:
        out = X25519PrivateKey.from_private_bytes(private).exchange(X25519PublicKey.from_public_bytes(public))
    except ValueError:  # OpenSSL itself refuses an all-zero result
        raise ProtocolError("invalidKey", "DH output is all zeros")
    if out == zeros(32):
        raise ProtocolError("invalidKey", "DH output is all zeros")
    return out


def sign(seed, message):
    """§1 Ed25519 (RFC 8032, pure), private key = 32-byte seed; deterministic."""
    return Ed25519PrivateKey.from_private_bytes(seed).sign(message)


def verify(public, message, signature):
    try:
        Ed25519PublicKey.from_public_bytes(public).verify(signature, message)
        return True
    except (InvalidSignature, ValueError):
        return False


def ed25519_public(seed):
    return Ed25519PrivateKey.from_private_bytes(seed).public_key().public_bytes_raw()


def aead_seal(key, nonce, plaintext, ad):
    """§1 AES-256-GCM, output ciphertext || 16-byte tag."""
    return AESGCM(key).encrypt(nonce, plaintext, ad)


def aead_open(key, nonce, ciphertext, ad):
    try:
        return AESGCM(key).decrypt(nonce, ciphertext, ad)
    except InvalidTag:
        raise ProtocolError("couldNotDecrypt", "AES-GCM tag")


def mlkem_public(seed):
    """§1 ML-KEM-768 private key = 64-byte seed d || z (FIPS 203 KeyGen_internal)."""
    return mlkem.MLKEM768PrivateKey.from_seed_bytes(seed).public_key().public_bytes_raw()


def mlkem_encaps(public):
    """§4.1 step 4: returns (CT, SS). Uses the system's randomness: not reproducible."""
    ss, ct = mlkem.MLKEM768PublicKey.from_public_bytes(public).encapsulate()
    return ct, ss


def mlkem_decaps(seed, ct):
    return mlkem.MLKEM768PrivateKey.from_seed_bytes(seed).decapsulate(ct)


# ---------------------------------------------------------------------------
# §11 Deterministic random source
# ---------------------------------------------------------------------------
class DeterministicRandom:
    """SHA-256(seed || u64(0)) || SHA-256(seed || u64(1)) || ..., consumed front to back.

    One continuous stream: a draw that ends inside a block leaves the rest of that block
    for the next draw (the spec's "consumed front to back").
    """

    def __init__(self, seed):
        self.seed = bytes(seed)
        self.counter = 0
        self.buffer = b""
        self.consumed = 0

    def draw(self, n):
        while len(self.buffer) < n:
            self.buffer += hashlib.sha256(self.seed + u64(self.counter)).digest()
            self.counter += 1
        out, self.buffer = self.buffer[:n], self.buffer[n:]
        self.consumed += n
        return out


# ---------------------------------------------------------------------------
# §1 pad / unpad (FORMATS §2)
# ---------------------------------------------------------------------------
def padded_size(length):
    """Smallest of 64, 128, ..., 65536 holding length + 5; above that the next multiple of 65536."""
    needed = length + 5
    if needed > 65536:
        return -(-needed // 65536) * 65536
    size = 64
    while size < needed:
        size *= 2
    return size


def is_bucket(total):
    if total < 64:
        return False
    if total <= 65536:
        return total & (total - 1) == 0
    return total % 65536 == 0


def pad(plaintext, rng):
    """0x01 || p || r || u32(len(r)); r drawn from the caller's random source."""
    total = padded_size(len(plaintext))
    r = rng.draw(total - len(plaintext) - 5)
    return b"\x01" + plaintext + r + u32(len(r))


def unpad(padded):
    """Rejects anything pad cannot produce (FORMATS §2)."""
    total = len(padded)
    if not is_bucket(total):
        raise ProtocolError("couldNotDecrypt", "padding: impossible total")
    if padded[0] != 0x01:
        raise ProtocolError("couldNotDecrypt", "padding: marker")
    pad_len = struct.unpack(">I", padded[-4:])[0]
    if pad_len > total - 5:
        raise ProtocolError("couldNotDecrypt", "padding: pad length too large")
    plaintext = padded[1:total - 4 - pad_len]
    if padded_size(len(plaintext)) != total:
        raise ProtocolError("couldNotDecrypt", "padding: non-canonical")
    return plaintext


# ---------------------------------------------------------------------------
# §1.1 Identity key conversion, Ed25519 -> X25519, with Python ints
# ---------------------------------------------------------------------------
P = 2**255 - 19
ED_D = (-121665 * pow(121666, P - 2, P)) % P
SQRT_M1 = pow(2, (P - 1) // 4, P)
L_ORDER = 2**252 + 27742317777372353535851937790883648493


def _ed_add(a, b):
    """Extended twisted-Edwards addition (a = -1), points as (X, Y, Z, T)."""
    x1, y1, z1, t1 = a
    x2, y2, z2, t2 = b
    aa = (y1 - x1) * (y2 - x2) % P
    bb = (y1 + x1) * (y2 + x2) % P
    cc = 2 * ED_D * t1 * t2 % P
    dd = 2 * z1 * z2 % P
    e, f, g, h = bb - aa, dd - cc, dd + cc, bb + aa
    return (e * f % P, g * h % P, f * g % P, e * h % P)


def _ed_mul(k, pt):
    acc = (0, 1, 1, 0)
    while k:
        if k & 1:
            acc = _ed_add(acc, pt)
        pt = _ed_add(pt, pt)
        k >>= 1
    return acc


def _ed_is_identity(pt):
    x, y, z, _ = pt
    return x % P == 0 and (y - z) % P == 0


def ed25519_decode(public):
    """RFC 8032 §5.1.3 point decoding; returns (x, y) or raises."""
    if len(public) != 32:
        raise ProtocolError("invalidKey", "identity key length")
    n = int.from_bytes(public, "little")
    sign_bit, y = n >> 255, n & ((1 << 255) - 1)
    if y >= P:
        raise ProtocolError("invalidKey", "identity key: non-canonical y")
    x2 = (y * y - 1) * pow(ED_D * y * y + 1, P - 2, P) % P
    x = pow(x2, (P + 3) // 8, P)
    if (x * x - x2) % P != 0:
        x = x * SQRT_M1 % P
    if (x * x - x2) % P != 0:
        raise ProtocolError("invalidKey", "identity key: not a curve point")
    if x == 0 and sign_bit == 1:
        raise ProtocolError("invalidKey", "identity key: x = 0 with sign bit")
    if x & 1 != sign_bit:
        x = P - x
    return x, y


def ed25519_pk_to_x25519(public, libsodium_checks=True):
    """§1.1 public: u = (1 + y) / (1 - y) mod p, 32 bytes little-endian.

    The spec only says "a key that does not decode to a point is rejected". libsodium's
    crypto_sign_ed25519_pk_to_curve25519, which the spec names, additionally rejects
    small-order points and points outside the prime-order subgroup; `libsodium_checks`
    applies those too (see PROTOCOL-REVIEW.md).
    """
    x, y = ed25519_decode(public)
    if libsodium_checks:
        point = (x, y, 1, x * y % P)
        if _ed_is_identity(_ed_mul(8, point)):
            raise ProtocolError("invalidKey", "identity key: small order")
        if not _ed_is_identity(_ed_mul(L_ORDER, point)):
            raise ProtocolError("invalidKey", "identity key: not in the prime-order subgroup")
    u = (1 + y) * pow((1 - y) % P, P - 2, P) % P
    return u.to_bytes(32, "little")


def ed25519_sk_to_x25519(seed, clamp=False):
    """§1.1 private: first 32 bytes of SHA-512(seed). libsodium clamps these bytes;
    the spec says clamping happens inside X25519. DH results are equal either way."""
    h = bytearray(hashlib.sha512(seed).digest()[:32])
    if clamp:
        h[0] &= 248
        h[31] &= 127
        h[31] |= 64
    return bytes(h)


class Identity:
    """§3 IK: Ed25519 seed, public key and X25519 form (IKx)."""

    def __init__(self, seed):
        self.seed = bytes(seed)
        self.public = ed25519_public(seed)
        self.x_private = ed25519_sk_to_x25519(seed)
        self.x_public = ed25519_pk_to_x25519(self.public)


# ---------------------------------------------------------------------------
# §5.1 KDFs
# ---------------------------------------------------------------------------
def kdf_rk(rk, dh_out):
    out = hkdf(rk, dh_out, RATCHET_INFO, 64)
    return out[:32], out[32:]


def kdf_ck(ck):
    return hmac_sha256(ck, b"\x01"), hmac_sha256(ck, b"\x02")


def message_keys(mk):
    out = hkdf(zeros(32), mk, MESSAGE_KEYS_INFO, 44)
    return out[:32], out[32:]


# ---------------------------------------------------------------------------
# §6 Wire formats
# ---------------------------------------------------------------------------
def _check_c(c):
    if len(c) < MIN_C:
        raise ProtocolError("truncated", f"ciphertext {len(c)} < {MIN_C}")
    if len(c) > MAX_C:
        raise ProtocolError("tooLarge", f"ciphertext {len(c)} > {MAX_C}")


def _check_start(data, expected_type):
    if len(data) < 1:
        raise ProtocolError("truncated", "empty")
    if data[0] != VERSION:
        raise ProtocolError("unsupportedVersion", f"version {data[0]}")
    if len(data) < 2:
        raise ProtocolError("truncated", "no type byte")
    if data[1] != expected_type:
        raise ProtocolError("unexpectedType", f"type {data[1]}")


def encode_message(dh_pub, pn, n, c):
    """§6.1: 0x01 || 0x01 || dh(32) || u32 pn || u32 n || c."""
    return bytes([VERSION, TYPE_MESSAGE]) + dh_pub + u32(pn) + u32(n) + c


def decode_message(data):
    """§6.1 -> dict(dh, pn, n, header, c)."""
    _check_start(data, TYPE_MESSAGE)
    if len(data) < 42:
        raise ProtocolError("truncated", "message header")
    c = data[42:]
    _check_c(c)
    return {"dh": data[2:34], "pn": struct.unpack(">I", data[34:38])[0],
            "n": struct.unpack(">I", data[38:42])[0], "header": data[2:42], "c": c}


def encode_prekey_message(ik_a, ek_a, spk_id, opk_id, pqspk_id, ct, inner):
    """§6.2."""
    assert len(ct) == KEM_CT_LEN
    return (bytes([VERSION, TYPE_PREKEY]) + ik_a + ek_a + u32(spk_id) + u32(opk_id) + u32(pqspk_id)
            + ct + inner)


def decode_prekey_message(data):
    _check_start(data, TYPE_PREKEY)
    if len(data) < 1166:
        raise ProtocolError("truncated", "prekey message header")
    inner = data[1166:]
    decode_message(inner)  # the inner message must be a complete type-0x01 message
    return {"ik": data[2:34], "ek": data[34:66],
            "spkId": struct.unpack(">I", data[66:70])[0],
            "opkId": struct.unpack(">I", data[70:74])[0],
            "pqspkId": struct.unpack(">I", data[74:78])[0],
            "ct": data[78:1166], "inner": inner}


def decode_group_message(data):
    """§6.3 -> dict(chainId, iteration, c, signed, signature)."""
    _check_start(data, TYPE_GROUP)
    if len(data) < 38 + 64:
        raise ProtocolError("truncated", "group message")
    c = data[38:len(data) - 64]
    _check_c(c)
    return {"chainId": data[2:34], "iteration": struct.unpack(">I", data[34:38])[0], "c": c,
            "signed": data[:len(data) - 64], "signature": data[len(data) - 64:]}


def encode_distribution(chain_id, iteration, chain_key, signing_public):
    """§6.4: exactly 102 bytes."""
    return bytes([VERSION, TYPE_DISTRIBUTION]) + chain_id + u32(iteration) + chain_key + signing_public


def decode_distribution(data):
    _check_start(data, TYPE_DISTRIBUTION)
    if len(data) < 102:
        raise ProtocolError("truncated", "distribution")
    if len(data) > 102:
        raise ProtocolError("trailingBytes", "distribution")
    return {"chainId": data[2:34], "iteration": struct.unpack(">I", data[34:38])[0],
            "chainKey": data[38:70], "signingPublic": data[70:102]}


# ---------------------------------------------------------------------------
# §5.2 Double Ratchet state
# ---------------------------------------------------------------------------
class SessionState:
    def __init__(self):
        self.local_identity = None   # Ed25519 public
        self.remote_identity = None
        self.role = None             # "initiator" | "responder"
        self.dhs_private = None      # DHs
        self.dhr = None              # DHr (optional)
        self.rk = None
        self.cks = None              # sending chain key (optional)
        self.ckr = None              # receiving chain key (optional)
        self.ns = 0
        self.nr = 0
        self.pn = 0
        self.skipped = []            # [(ratchetKey, n, mk)], oldest first
        self.base_key = None         # EK_A public
        self.pending = None          # (spkId, opkId, pqspkId, CT) for Alice

    @property
    def ad(self):
        # §9.1: AD = local || remote for the initiator, remote || local for the responder;
        # in both cases IK_A || IK_B (§4.1 step 6).
        if self.role == "initiator":
            return self.local_identity + self.remote_identity
        return self.remote_identity + self.local_identity

    @property
    def dhs_public(self):
        return x25519_public(self.dhs_private)

    # §5.3 Encrypt -----------------------------------------------------------------------
    def encrypt(self, plaintext, rng):
        if self.cks is None:                                       # step 1
            raise ProtocolError("noSendingChain")
        if len(plaintext) > MAX_PLAINTEXT:                         # step 3 (checked first, no state change)
            raise ProtocolError("tooLarge", "plaintext")
        mk, self.cks = kdf_ck(self.cks)                            # step 2
        header = self.dhs_public + u32(self.pn) + u32(self.ns)
        self.ns += 1
        p = pad(plaintext, rng)                                    # step 3: draws the padding
        key, nonce = message_keys(mk)                              # step 4
        c = aead_seal(key, nonce, p, self.ad + header)
        message = bytes([VERSION, TYPE_MESSAGE]) + header + c      # step 5
        if self.pending is not None:
            spk_id, opk_id, pqspk_id, ct = self.pending
            message = encode_prekey_message(self.local_identity, self.base_key, spk_id, opk_id,
                                            pqspk_id, ct, message)
        return message

    # §5.4 Decrypt -----------------------------------------------------------------------
    def _skip_message_keys(self, until):
        if self.ckr is None:
            return
        if until > self.nr + MAX_SKIP:
            raise ProtocolError("couldNotDecrypt", "too many skipped messages")
        while self.nr < until:
            mk, self.ckr = kdf_ck(self.ckr)
            self.skipped.append((self.dhr, self.nr, mk))
            self.nr += 1
            while len(self.skipped) > MAX_STORED_SKIPPED:
                self.skipped.pop(0)

    def decrypt(self, message_bytes, rng):
        """Returns (new_state, plaintext); self is never modified (§5.4 works on a copy).
        The rng is the caller's and IS advanced by a DH ratchet step even on failure."""
        m = decode_message(message_bytes)
        s = copy.deepcopy(self)
        mk = None
        # step 1: a stored skipped key
        for i, (rkey, n, key) in enumerate(s.skipped):
            if rkey == m["dh"] and n == m["n"]:
                mk = key
                del s.skipped[i]
                break
        if mk is None:
            # step 2: duplicate / replay in the current receiving chain
            if s.dhr is not None and m["dh"] == s.dhr and m["n"] < s.nr:
                raise ProtocolError("couldNotDecrypt", "duplicate")
            # step 3: DH ratchet step
            if s.dhr is None or m["dh"] != s.dhr:
                s._skip_message_keys(m["pn"])
                s.pn = s.ns
                s.ns = 0
                s.nr = 0
                s.dhr = m["dh"]
                s.rk, s.ckr = kdf_rk(s.rk, dh(s.dhs_private, s.dhr))
                s.dhs_private = rng.draw(32)
                s.rk, s.cks = kdf_rk(s.rk, dh(s.dhs_private, s.dhr))
            # step 4
            if s.ckr is None:
                raise ProtocolError("couldNotDecrypt", "no receiving chain")
            s._skip_message_keys(m["n"])
            mk, s.ckr = kdf_ck(s.ckr)
            s.nr += 1
        key, nonce = message_keys(mk)
        p = aead_open(key, nonce, m["c"], s.ad + m["header"])
        plaintext = unpad(p)
        s.pending = None                                           # step 5
        return s, plaintext


# ---------------------------------------------------------------------------
# §3 Keys and bundles
# ---------------------------------------------------------------------------
class BobKeys:
    """Bob's device keys (§3), given as explicit private material."""

    def __init__(self, identity_seed, spk_id, spk_private, opks, pqspk_id, pqspk_seed):
        self.identity = Identity(identity_seed)
        self.spk_id, self.spk_private = spk_id, spk_private
        self.spk_public = x25519_public(spk_private)
        self.spk_signature = sign(identity_seed, SPK_SIGNATURE_PREFIX + self.spk_public)
        self.opks = dict(opks)   # id -> private
        self.pqspk_id, self.pqspk_seed = pqspk_id, pqspk_seed
        self.pqspk_public = mlkem_public(pqspk_seed)
        self.pqspk_signature = sign(identity_seed, PQSPK_SIGNATURE_PREFIX + self.pqspk_public)

    def bundle(self, opk_id):
        b = {"ik": self.identity.public, "spkId": self.spk_id, "spk": self.spk_public,
             "spkSignature": self.spk_signature, "pqspkId": self.pqspk_id,
             "pqspk": self.pqspk_public, "pqspkSignature": self.pqspk_signature}
        if opk_id is not None:
            b["opkId"], b["opk"] = opk_id, x25519_public(self.opks[opk_id])
        return b


# ---------------------------------------------------------------------------
# §4.1 PQXDH, Alice
# ---------------------------------------------------------------------------
def pqxdh_sk(dhs, ss):
    """§4.1 step 5."""
    return hkdf(zeros(32), ff(32) + b"".join(dhs) + ss, PQXDH_INFO, 32)


def alice_init(alice, bundle, rng, encapsulate, trace=None):
    """alice: Identity; bundle: dict from BobKeys.bundle; encapsulate(pk) -> (CT, SS)."""
    ik_b = bundle["ik"]
    # step 1
    if not verify(ik_b, SPK_SIGNATURE_PREFIX + bundle["spk"], bundle["spkSignature"]):
        raise ProtocolError("invalidSignature", "SPK")
    if not verify(ik_b, PQSPK_SIGNATURE_PREFIX + bundle["pqspk"], bundle["pqspkSignature"]):
        raise ProtocolError("invalidSignature", "PQSPK")
    ikx_b = ed25519_pk_to_x25519(ik_b)
    # step 2
    ek_a = rng.draw(32)
    # step 3
    dhs = [dh(alice.x_private, bundle["spk"]), dh(ek_a, ikx_b), dh(ek_a, bundle["spk"])]
    if "opk" in bundle:
        dhs.append(dh(ek_a, bundle["opk"]))
    # step 4
    ct, ss = encapsulate(bundle["pqspk"])
    # step 5, 6
    sk = pqxdh_sk(dhs, ss)
    s = SessionState()
    s.role, s.local_identity, s.remote_identity = "initiator", alice.public, ik_b
    # step 7: ratchet start
    s.dhs_private = rng.draw(32)
    s.dhr = bundle["spk"]
    ratchet_dh = dh(s.dhs_private, s.dhr)
    s.rk, s.cks = kdf_rk(sk, ratchet_dh)
    s.ns = s.nr = s.pn = 0
    # step 8
    s.pending = (bundle["spkId"], bundle.get("opkId", NO_OPK), bundle["pqspkId"], ct)
    s.base_key = x25519_public(ek_a)
    if trace is not None:
        trace.update({"ekPrivate": ek_a, "ekPublic": s.base_key, "dh": dhs, "ct": ct, "ss": ss,
                      "sk": sk, "ad": s.ad, "ratchetPrivate": s.dhs_private,
                      "ratchetPublic": s.dhs_public, "rootKey": s.rk, "sendingChainKey": s.cks})
    return s


# ---------------------------------------------------------------------------
# §4.2 PQXDH, Bob, and §7 session records
# ---------------------------------------------------------------------------
class SessionRecord:
    """§7: current state and up to 40 archived states, newest first."""

    def __init__(self):
        self.states = []  # [current, archived newest first...]

    def promote(self, state):
        self.states.insert(0, state)
        del self.states[1 + MAX_ARCHIVED_STATES:]

    def encrypt(self, plaintext, rng):
        return self.states[0].encrypt(plaintext, rng)

    def decrypt_message(self, data, rng):
        """§7: try current, then archived newest first; the winner becomes current."""
        for i, st in enumerate(self.states):
            try:
                new, plaintext = st.decrypt(data, rng)
            except ProtocolError as e:
                if e.code in ("truncated", "tooLarge", "unsupportedVersion", "unexpectedType"):
                    raise
                continue
            del self.states[i]
            self.states.insert(0, new)
            return plaintext
        raise ProtocolError("couldNotDecrypt", "no state decrypts")


class Bob:
    """Responder side of §4.2 with its stores reduced to dicts."""

    def __init__(self, keys):
        self.keys = keys
        self.records = {}        # address -> SessionRecord
        self.identities = {}     # address -> IK (trust on first use)

    def decrypt_prekey_message(self, address, data, rng, trace=None):
        m = decode_prekey_message(data)                                       # step 1
        known = self.identities.get(address)
        if known is not None and known != m["ik"]:
            raise ProtocolError("untrustedIdentity")
        record = self.records.setdefault(address, SessionRecord())
        for i, st in enumerate(record.states):                                # step 2
            if st.base_key == m["ek"]:
                if st.remote_identity != m["ik"]:   # "IK_A must equal that state's remote identity key"
                    raise ProtocolError("couldNotDecrypt", "re-sent prekey message with another IK_A")
                new, plaintext = st.decrypt(m["inner"], rng)
                del record.states[i]
                record.states.insert(0, new)
                return plaintext
        k = self.keys                                                         # step 3
        if m["spkId"] != k.spk_id or m["pqspkId"] != k.pqspk_id:
            raise ProtocolError("unknownPreKey")
        if m["opkId"] != NO_OPK and m["opkId"] not in k.opks:
            raise ProtocolError("unknownPreKey")
        ikx_a = ed25519_pk_to_x25519(m["ik"])                                 # step 4
        dhs = [dh(k.spk_private, ikx_a), dh(k.identity.x_private, m["ek"]), dh(k.spk_private, m["ek"])]
        if m["opkId"] != NO_OPK:
            dhs.append(dh(k.opks[m["opkId"]], m["ek"]))
        ss = mlkem_decaps(k.pqspk_seed, m["ct"])
        sk = pqxdh_sk(dhs, ss)
        s = SessionState()                                                    # step 5
        s.role, s.local_identity, s.remote_identity = "responder", k.identity.public, m["ik"]
        s.dhs_private, s.rk = k.spk_private, sk
        s.base_key = m["ek"]
        new, plaintext = s.decrypt(m["inner"], rng)                           # step 6
        record.promote(new)
        if m["opkId"] != NO_OPK:
            del k.opks[m["opkId"]]
        self.identities[address] = m["ik"]
        if trace is not None:
            trace.update({"dh": dhs, "ss": ss, "sk": sk})
        return plaintext


# ---------------------------------------------------------------------------
# §8 Sender Keys
# ---------------------------------------------------------------------------
class SenderKeyState:
    def __init__(self, chain_id, iteration, chain_key, signing_public, signing_seed=None):
        self.chain_id, self.iteration, self.chain_key = chain_id, iteration, chain_key
        self.signing_public, self.signing_seed = signing_public, signing_seed
        self.skipped = []  # [(iteration, mk)], oldest first

    @classmethod
    def new_own(cls, rng):
        """§8 New own chain: draw chainKey (32) then signingSeed (32)."""
        chain_key = rng.draw(32)
        signing_seed = rng.draw(32)
        return cls(hashlib.sha256(chain_key).digest(), 0, chain_key, ed25519_public(signing_seed), signing_seed)

    def distribution(self):
        return encode_distribution(self.chain_id, self.iteration, self.chain_key, self.signing_public)


def sender_message_keys(mk):
    out = hkdf(zeros(32), mk, SENDER_KEY_INFO, 44)
    return out[:32], out[32:]


def group_ad(group_id, chain_id, iteration):
    return group_id.encode("utf-8") + chain_id + u32(iteration)


def group_encrypt(state, group_id, plaintext, rng):
    """§8 Encrypt with our own newest chain; mutates state."""
    if len(plaintext) > MAX_PLAINTEXT:
        raise ProtocolError("tooLarge", "plaintext")
    mk, ck_next = kdf_ck(state.chain_key)
    key, nonce = sender_message_keys(mk)
    c = aead_seal(key, nonce, pad(plaintext, rng), group_ad(group_id, state.chain_id, state.iteration))
    body = bytes([VERSION, TYPE_GROUP]) + state.chain_id + u32(state.iteration) + c
    message = body + sign(state.signing_seed, body)
    state.chain_key, state.iteration = ck_next, state.iteration + 1
    return message


class SenderKeyRecord:
    """§8: up to 5 states per (groupId, sender), newest first."""

    def __init__(self):
        self.states = []

    def process_distribution(self, data):
        d = decode_distribution(data)
        if d["iteration"] == 0 and d["chainId"] != hashlib.sha256(d["chainKey"]).digest():
            raise ProtocolError("invalidDistribution")
        if any(s.chain_id == d["chainId"] for s in self.states):
            return False  # duplicate: ignored
        self.states.insert(0, SenderKeyState(d["chainId"], d["iteration"], d["chainKey"], d["signingPublic"]))
        del self.states[MAX_SENDER_KEY_STATES:]
        return True

    def decrypt(self, group_id, data):
        m = decode_group_message(data)
        idx = next((i for i, s in enumerate(self.states) if s.chain_id == m["chainId"]), None)
        if idx is None:                                                    # step 1
            raise ProtocolError("unknownSenderChain")
        s = copy.deepcopy(self.states[idx])
        if not verify(s.signing_public, m["signed"], m["signature"]):      # step 2
            raise ProtocolError("invalidSignature")
        it = m["iteration"]
        if it < s.iteration:                                               # step 3
            hit = next((j for j, (i2, _) in enumerate(s.skipped) if i2 == it), None)
            if hit is None:
                raise ProtocolError("couldNotDecrypt", "duplicate")
            mk = s.skipped.pop(hit)[1]
        else:                                                              # step 4
            if it > s.iteration + MAX_SKIP:
                raise ProtocolError("couldNotDecrypt", "too far ahead")
            while s.iteration < it:
                mk, s.chain_key = kdf_ck(s.chain_key)
                s.skipped.append((s.iteration, mk))
                s.iteration += 1
                while len(s.skipped) > MAX_STORED_SKIPPED:
                    s.skipped.pop(0)
            mk, s.chain_key = kdf_ck(s.chain_key)
            s.iteration = it + 1
        key, nonce = sender_message_keys(mk)                               # step 5
        plaintext = unpad(aead_open(key, nonce, m["c"], group_ad(group_id, m["chainId"], it)))
        self.states[idx] = s
        return plaintext


# ---------------------------------------------------------------------------
# §9 Serialised records (used by the cross-check when vectors carry them)
# ---------------------------------------------------------------------------
def opt(x):
    return b"\x00" if x is None else b"\x01" + x


def serialize_session_state(s):
    """§9.1."""
    out = s.local_identity + s.remote_identity + (b"\x00" if s.role == "initiator" else b"\x01")
    out += s.base_key + s.rk + s.dhs_private + opt(s.dhr)
    out += opt(None if s.cks is None else s.cks + u32(s.ns))
    out += opt(None if s.ckr is None else s.ckr + u32(s.nr))
    out += u32(s.pn)
    out += opt(None if s.pending is None else
               u32(s.pending[0]) + u32(s.pending[1]) + u32(s.pending[2]) + s.pending[3])
    out += u32(len(s.skipped)) + b"".join(k + u32(n) + mk for k, n, mk in s.skipped)
    return out


def serialize_session_record(record):
    """§9.2 kind 0x10: u32 count, then count x (u32 length || session state), current first."""
    out = b"\x01\x10" + u32(len(record.states))
    for st in record.states:
        body = serialize_session_state(st)
        out += u32(len(body)) + body
    return out


def serialize_sender_key_record(record_states):
    """§9.2 kind 0x11: u32 count, then the sender-key states, newest first (no length prefix)."""
    return b"\x01\x11" + u32(len(record_states)) + b"".join(serialize_sender_key_state(s) for s in record_states)


def serialize_sender_key_state(s):
    """§9.2 sender-key state."""
    return (s.chain_id + u32(s.iteration) + s.chain_key + s.signing_public + opt(s.signing_seed)
            + u32(len(s.skipped)) + b"".join(u32(i) + mk for i, mk in s.skipped))


# ===========================================================================
# Generator mode: Tests/ParleyProtocolTests/Vectors/python-reference.json
# ===========================================================================
#
# JSON schema of python-reference.json (all byte strings are lower-case hex):
#
# {
#   "generator": how the file was made,
#   "alice": {
#     "address": {"accountId": str, "deviceId": int},
#     "identitySeed", "identityPublic",            Ed25519 seed / public key (§3 IK)
#     "identityX25519Private",                      first 32 bytes of SHA-512(seed), unclamped (§1.1)
#     "identityX25519PrivateClamped",               the same clamped, as libsodium returns it
#     "identityX25519Public",                       u = (1+y)/(1-y) (§1.1)
#     "randomSeed"                                  seed of Alice's DeterministicRandomSource (§11)
#                                                   for the 1:1 conversation (PQXDH + ratchet)
#   },
#   "bob": {
#     "address", "identitySeed", "identityPublic", "identityX25519Private", "identityX25519Public",
#     "randomSeed",                                 Bob's DeterministicRandomSource for the conversation
#     "signedPreKey": {"id", "private", "public", "signature"},      signature = Sign(IK, 0x05 || public)
#     "oneTimePreKeys": [{"id", "private", "public"}],
#     "pqPreKey": {"id", "seed", "public", "signature"}              seed = d || z; sig over 0x0A || public
#   },
#   "pqxdh": {
#     "opkId": the OPK id in Alice's bundle,
#     "ciphertext", "sharedSecret":                 the pinned ML-KEM-768 encapsulation (§4.1 step 4);
#                                                   Decaps(pqPreKey.seed, ciphertext) == sharedSecret
#     "ephemeralPrivate", "ephemeralPublic",        EK_A (first 32 bytes Alice draws)
#     "dh": [DH1, DH2, DH3, DH4], "sharedKey": SK, "associatedData": IK_A || IK_B,
#     "aliceRatchetPrivate", "aliceRatchetPublic",  Alice's first DHs (next 32 bytes drawn)
#     "rootKey", "sendingChainKey"                  after KDF_RK(SK, DH(DHs, SPK_B))
#   },
#   "conversation": [                               replay IN THIS ORDER; each party uses its own
#     {                                             random source for all of its steps
#       "step": int, "party": "alice" | "bob", "op": "encrypt" | "decrypt",
#       "message": label ("m0" Alice's, "b0" Bob's, "m3-tampered", ...),
#       "plaintext": hex,                           encrypt: input; decrypt: expected output (ok only)
#       "plaintextText": the same as UTF-8 text when it is text,
#       "wire": hex,                                encrypt: expected output; decrypt: the input
#       "wireType": "prekey" | "message",
#       "expect": "ok" | "reject",                  a rejected decrypt must leave the state unchanged
#       "note": why the step is there,
#       "randomDrawn": total bytes the party's random source has given out after this step,
#       "stateAfter": §9.1 serialisation of the party's current session state after the step,
#       "recordAfter": §9.2 session record (0x01 0x10 ...) of the party's record for the other
#     }, ...
#   ],
#   "group": {
#     "groupId": str, "sender": address of Alice, "receiver": address of Bob,
#     "randomSeed":                                 Alice's random source for the group (new chain + padding)
#     "chainKey", "signingSeed", "chainId", "signingPublic",   §8 new own chain (chainKey drawn first)
#     "distribution": §6.4 bytes (iteration 0),
#     "messages": [{"message": "g0", "iteration", "plaintext", "plaintextText", "wire"}],   sent in order
#     "receive": [                                  Bob processes "distribution" first, then these in order
#       {"message": label, "wire", "expect": "ok" | "reject", "plaintext"?, "note"}
#     ],
#     "senderStateAfter", "receiverStateAfter":     §9.2 sender-key state serialisations
#     "senderRecordAfter", "receiverRecordAfter":   §9.2 sender-key records (0x01 0x11 ...)
#   }
# }

import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
VECTORS = os.path.join(ROOT, "Tests", "ParleyProtocolTests", "Vectors")
OUT_FILE = os.path.join(VECTORS, "python-reference.json")


def det(label, n):
    """Fixed test material: SHA-256(label || u64 counter) blocks (not the protocol's random source)."""
    return DeterministicRandom(label.encode()).draw(n)


def _text(b):
    try:
        return b.decode("utf-8")
    except UnicodeDecodeError:
        return None


def _pinned_encapsulation(pq_seed, pq_public):
    """Reuse the CT/SS already in the JSON (if it decapsulates) so re-running is reproducible."""
    if os.path.exists(OUT_FILE):
        old = json.load(open(OUT_FILE))
        ct = bytes.fromhex(old["pqxdh"]["ciphertext"])
        ss = bytes.fromhex(old["pqxdh"]["sharedSecret"])
        if mlkem_decaps(pq_seed, ct) == ss and old["bob"]["pqPreKey"]["seed"] == pq_seed.hex():
            return ct, ss
    return mlkem_encaps(pq_public)


def generate():
    alice_address = {"accountId": "alice@parley.test", "deviceId": 1}
    bob_address = {"accountId": "bob@parley.test", "deviceId": 2}
    alice = Identity(det("parley-xcheck alice identity", 32))
    alice_rng = DeterministicRandom(det("parley-xcheck alice random", 32))
    bob_rng = DeterministicRandom(det("parley-xcheck bob random", 32))
    opk_ids = [1000, 1001, 1002]
    bob_keys = BobKeys(det("parley-xcheck bob identity", 32), 7, det("parley-xcheck bob spk", 32),
                       {i: det(f"parley-xcheck bob opk {i}", 32) for i in opk_ids},
                       0x0A0B0C0D, det("parley-xcheck bob pqspk", 64))
    opks_public = {i: x25519_public(k) for i, k in bob_keys.opks.items()}
    bob_opks_doc = [{"id": i, "private": bob_keys.opks[i].hex(), "public": opks_public[i].hex()} for i in opk_ids]
    bob = Bob(bob_keys)
    ct, ss = _pinned_encapsulation(bob_keys.pqspk_seed, bob_keys.pqspk_public)

    # PQXDH (§4.1)
    used_opk = 1001
    trace = {}
    alice_state = alice_init(alice, bob_keys.bundle(used_opk), alice_rng, lambda pk: (ct, ss), trace)
    alice_record = SessionRecord()
    alice_record.promote(alice_state)

    steps = []
    wires = {}
    rngs = {"alice": alice_rng, "bob": bob_rng}
    alice_addr_key = "alice@parley.test/1"

    def current_state(party, whole_record=False):
        rec = alice_record if party == "alice" else bob.records.get(alice_addr_key)
        if not rec or not rec.states:
            return None
        return (serialize_session_record(rec) if whole_record else serialize_session_state(rec.states[0])).hex()

    def record(party, op, label, plaintext, wire, expect, note):
        steps.append({"step": len(steps), "party": party, "op": op, "message": label,
                      "plaintext": plaintext.hex() if plaintext is not None else None,
                      "plaintextText": _text(plaintext) if plaintext is not None else None,
                      "wire": wire.hex(), "wireType": "prekey" if wire[1] == TYPE_PREKEY else "message",
                      "expect": expect, "note": note, "randomDrawn": rngs[party].consumed,
                      "stateAfter": current_state(party),
                      "recordAfter": current_state(party, whole_record=True)})

    def send(party, label, plaintext, note):
        rec = alice_record if party == "alice" else bob.records[alice_addr_key]
        wire = rec.encrypt(plaintext, rngs[party])
        wires[label] = (wire, plaintext)
        record(party, "encrypt", label, plaintext, wire, "ok", note)

    def receive(party, label, note, wire=None, expect="ok"):
        wire = wire if wire is not None else wires[label][0]
        try:
            if party == "bob" and wire[1] == TYPE_PREKEY:
                got = bob.decrypt_prekey_message(alice_addr_key, wire, bob_rng)
            elif party == "bob":
                got = bob.records[alice_addr_key].decrypt_message(wire, bob_rng)
            else:
                got = alice_record.decrypt_message(wire, alice_rng)
            assert expect == "ok", f"{label} should have been rejected"
            assert got == wires[label][1], label
        except ProtocolError:
            assert expect == "reject", f"{label} rejected unexpectedly"
            got = None
        record(party, "decrypt", label, got, wire, expect, note)

    def tamper(wire):
        b = bytearray(wire)
        b[-1] ^= 0x01  # last tag byte
        return bytes(b)

    long_text = ("The quick brown fox jumps over the lazy dog. " * 5).encode()[:200]
    send("alice", "m0", "Hi Bob, it's Alice.".encode(), "first message: prekey message (OPK 1001)")
    send("alice", "m1", b"", "empty plaintext, still a prekey message")
    send("alice", "m2", long_text, "200 bytes: 256-byte bucket")
    receive("bob", "m1", "out of order: Bob sets the session up from m1, skipping n=0 (§4.2, §5.4)")
    receive("bob", "m0", "same baseKey: decrypted with the existing state from SKIPPED (§4.2 step 2)")
    send("bob", "b0", "Hello Alice! 👋".encode(), "Bob's first message: a plain message")
    send("bob", "b1", "Second from Bob".encode(), "")
    receive("alice", "b1", "Alice skips b0; DH ratchet step; pending prekey cleared")
    send("alice", "m3", "Now a normal message.".encode(), "no longer wrapped: pending prekey was cleared")
    receive("bob", "m3-tampered", "tag altered: rejected; Bob's 32-byte ratchet draw is consumed anyway (§5.4 step 3)",
            wire=tamper(wires["m3"][0]), expect="reject")
    receive("bob", "m3", "DH ratchet step at Bob; SkipMessageKeys(pn=3) keeps n=2 of the old chain")
    receive("alice", "b0", "late: from Alice's SKIPPED")
    send("bob", "b2", bytes(range(256))[:123], "123 bytes: the largest plaintext of the 128-byte bucket")
    receive("bob", "m2", "late prekey message from the old chain: baseKey match, then SKIPPED")
    send("alice", "m4", "m4".encode(), "")
    send("alice", "m5", "m5, sent after m4".encode(), "")
    receive("bob", "m5", "skips m4 in the same chain")
    receive("bob", "m4", "from SKIPPED")
    receive("alice", "b2", "")
    send("bob", "b3", det("parley-xcheck b3", 1000), "1000 random bytes: 1024-byte bucket")
    receive("alice", "b3", "")
    receive("bob", "m1-replay", "replayed prekey message: baseKey match, old ratchet key -> ratchet step "
            "(32 bytes drawn) then AEAD fails; rejected, state unchanged", wire=wires["m1"][0], expect="reject")
    send("bob", "b4", "after the replay".encode(), "shows the rejected replay's draw was consumed")
    receive("alice", "b4", "")
    for s in steps:
        if s["message"] in ("m3-tampered", "m1-replay"):
            s["plaintext"] = None
            s["plaintextText"] = None

    # Sender keys (§8)
    group_id = "parley-xcheck-group"
    group_rng = DeterministicRandom(det("parley-xcheck alice group random", 32))
    own = SenderKeyState.new_own(group_rng)
    distribution = own.distribution()
    group_messages = []
    for i, text in enumerate(["group hello", "g1 (delivered last)", "", "g3: " + "x" * 100]):
        pt = text.encode()
        group_messages.append({"message": f"g{i}", "iteration": own.iteration, "plaintext": pt.hex(),
                               "plaintextText": text, "wire": group_encrypt(own, group_id, pt, group_rng).hex()})
    receiver = SenderKeyRecord()
    assert receiver.process_distribution(distribution)
    receive_log = []

    def group_receive(label, wire, expect, note, plaintext=None):
        try:
            got = receiver.decrypt(group_id, wire)
            assert expect == "ok" and got == plaintext, label
            entry = {"message": label, "wire": wire.hex(), "expect": "ok", "plaintext": got.hex(), "note": note}
        except ProtocolError as e:
            assert expect == "reject", f"{label}: {e}"
            entry = {"message": label, "wire": wire.hex(), "expect": "reject", "note": note}
        receive_log.append(entry)

    gw = {m["message"]: (bytes.fromhex(m["wire"]), bytes.fromhex(m["plaintext"])) for m in group_messages}
    group_receive("g0", *gw["g0"][:1], "ok", "in order", gw["g0"][1])
    group_receive("g2", gw["g2"][0], "ok", "skips iteration 1 (stored)", gw["g2"][1])
    group_receive("g3", gw["g3"][0], "ok", "", gw["g3"][1])
    group_receive("g1", gw["g1"][0], "ok", "late: skipped key for iteration 1", gw["g1"][1])
    group_receive("g2-replay", gw["g2"][0], "reject", "duplicate: no key for iteration 2 any more")
    bad_sig = bytearray(gw["g3"][0])
    bad_sig[-1] ^= 0x80
    group_receive("g3-bad-signature", bytes(bad_sig), "reject", "signature checked before decryption")

    doc = {
        "generator": "python3 scripts/vectors/parley_protocol_reference.py generate (independent "
                     "implementation from docs/PROTOCOL.md; schema at the top of its generator section)",
        "alice": {"address": alice_address, "identitySeed": alice.seed.hex(), "identityPublic": alice.public.hex(),
                  "identityX25519Private": alice.x_private.hex(),
                  "identityX25519PrivateClamped": ed25519_sk_to_x25519(alice.seed, clamp=True).hex(),
                  "identityX25519Public": alice.x_public.hex(),
                  "randomSeed": alice_rng.seed.hex()},
        "bob": {"address": bob_address, "identitySeed": bob_keys.identity.seed.hex(),
                "identityPublic": bob_keys.identity.public.hex(),
                "identityX25519Private": bob_keys.identity.x_private.hex(),
                "identityX25519PrivateClamped": ed25519_sk_to_x25519(bob_keys.identity.seed, clamp=True).hex(),
                "identityX25519Public": bob_keys.identity.x_public.hex(),
                "randomSeed": bob_rng.seed.hex(),
                "signedPreKey": {"id": bob_keys.spk_id, "private": bob_keys.spk_private.hex(),
                                 "public": bob_keys.spk_public.hex(), "signature": bob_keys.spk_signature.hex()},
                "oneTimePreKeys": bob_opks_doc,
                "pqPreKey": {"id": bob_keys.pqspk_id, "seed": bob_keys.pqspk_seed.hex(),
                             "public": bob_keys.pqspk_public.hex(), "signature": bob_keys.pqspk_signature.hex()}},
        "pqxdh": {"opkId": used_opk, "ciphertext": ct.hex(), "sharedSecret": ss.hex(),
                  "ephemeralPrivate": trace["ekPrivate"].hex(), "ephemeralPublic": trace["ekPublic"].hex(),
                  "dh": [d.hex() for d in trace["dh"]], "sharedKey": trace["sk"].hex(),
                  "associatedData": trace["ad"].hex(),
                  "aliceRatchetPrivate": trace["ratchetPrivate"].hex(),
                  "aliceRatchetPublic": trace["ratchetPublic"].hex(),
                  "rootKey": trace["rootKey"].hex(), "sendingChainKey": trace["sendingChainKey"].hex()},
        "conversation": steps,
        "group": {"groupId": group_id, "sender": alice_address, "receiver": bob_address,
                  "randomSeed": group_rng.seed.hex(),
                  "chainKey": distribution[38:70].hex(), "signingSeed": own.signing_seed.hex(),
                  "chainId": own.chain_id.hex(), "signingPublic": own.signing_public.hex(),
                  "distribution": distribution.hex(), "messages": group_messages, "receive": receive_log,
                  "senderStateAfter": serialize_sender_key_state(own).hex(),
                  "receiverStateAfter": serialize_sender_key_state(receiver.states[0]).hex(),
                  "senderRecordAfter": serialize_sender_key_record([own]).hex(),
                  "receiverRecordAfter": serialize_sender_key_record(receiver.states).hex()},
    }
    os.makedirs(VECTORS, exist_ok=True)
    with open(OUT_FILE, "w") as f:
        json.dump(doc, f, indent=2, ensure_ascii=False)
        f.write("\n")
    print(f"wrote {os.path.relpath(OUT_FILE, ROOT)}: {len(steps)} conversation steps, "
          f"{len(group_messages)} group messages")
    return doc


# ===========================================================================
# Self test (spec-internal sanity, independent of any vector file)
# ===========================================================================
def selftest():
    rng = DeterministicRandom(b"seed")
    assert rng.draw(16) + rng.draw(40) == hashlib.sha256(b"seed" + u64(0)).digest() + \
        hashlib.sha256(b"seed" + u64(1)).digest()[:24]
    for n in [0, 1, 59, 60, 123, 124, 65531, 65532, 200000]:
        p = pad(b"a" * n, rng)
        assert len(p) == padded_size(n) and unpad(p) == b"a" * n
    # §1.1: X25519 form of the Ed25519 base point is u = 9.
    base = bytes.fromhex("5866666666666666666666666666666666666666666666666666666666666666")
    assert ed25519_pk_to_x25519(base) == (9).to_bytes(32, "little")
    # private/public consistency of the conversion
    idt = Identity(det("selftest identity", 32))
    assert x25519_public(idt.x_private) == idt.x_public
    print("selftest ok")


# ===========================================================================
# Cross-check mode: recompute the Swift vectors from their inputs
# ===========================================================================
CHECKERS = {}  # vector file name -> function(doc, report)


def checker(name):
    def register(fn):
        CHECKERS[name] = fn
        return fn
    return register


def H(x):
    return bytes.fromhex(x)


def expect_reject(report, where, section, fn):
    """Counts a check that `fn` raises ProtocolError; records a mismatch if it succeeds."""
    try:
        fn()
    except ProtocolError as e:
        report.eq(where, "rejected", True, True, section)
        return e.code
    except Exception as e:  # noqa: BLE001 - any other exception is a reference bug worth seeing
        report.eq(where, "rejected with ProtocolError", "ProtocolError", f"{type(e).__name__}: {e}", section)
        return None
    report.eq(where, "rejected", True, False, section)
    return None


@checker("pqxdh.json")
def check_pqxdh(doc, report):
    k = doc["keys"]
    # §3 / §1.1 keys
    alice = Identity(H(k["aliceIdentitySeed"]))
    report.eq("keys", "aliceIdentityPublic", k["aliceIdentityPublic"], alice.public, "§3 Ed25519")
    report.eq("keys", "aliceIdentityX25519Public", k["aliceIdentityX25519Public"], alice.x_public, "§1.1")
    bob_ik = Identity(H(k["bobIdentitySeed"]))
    report.eq("keys", "bobIdentityPublic", k["bobIdentityPublic"], bob_ik.public, "§3 Ed25519")
    report.eq("keys", "bobIdentityX25519Public", k["bobIdentityX25519Public"], bob_ik.x_public, "§1.1")
    report.eq("keys", "spkPublic", k["spkPublic"], x25519_public(H(k["spkPrivate"])), "§1 X25519")
    report.eq("keys", "opkPublic", k["opkPublic"], x25519_public(H(k["opkPrivate"])), "§1 X25519")
    report.eq("keys", "pqspkPublic", k["pqspkPublic"], mlkem_public(H(k["pqspkSeed"])), "§1 ML-KEM seed d||z")
    report.eq("keys", "spkSignature", k["spkSignature"], sign(bob_ik.seed, SPK_SIGNATURE_PREFIX + H(k["spkPublic"])),
              "§3 Sign(IK, 0x05 || spk) (deterministic RFC 8032)")
    report.eq("keys", "pqspkSignature", k["pqspkSignature"],
              sign(bob_ik.seed, PQSPK_SIGNATURE_PREFIX + H(k["pqspkPublic"])), "§3 Sign(IK, 0x0A || pqspk)")

    def bob_keys():
        return BobKeys(bob_ik.seed, k["spkId"], H(k["spkPrivate"]), {k["opkId"]: H(k["opkPrivate"])},
                       k["pqspkId"], H(k["pqspkSeed"]))

    for case in doc["cases"]:
        where = f"case {case['name']}"
        ct, ss = H(case["kemCiphertext"]), H(case["kemSharedSecret"])
        report.eq(where, "Decaps(pqspk, CT)", case["kemSharedSecret"], mlkem_decaps(H(k["pqspkSeed"]), ct), "§4.2 step 4")
        keys = bob_keys()
        bundle = keys.bundle(k["opkId"] if case["useOneTimePreKey"] else None)
        bundle["spkSignature"], bundle["pqspkSignature"] = H(k["spkSignature"]), H(k["pqspkSignature"])
        rng = DeterministicRandom(H(case["aliceRandomSeed"]))
        trace = {}
        state = alice_init(alice, bundle, rng, lambda pk: (ct, ss), trace)
        report.eq(where, "ephemeralPublic", case["ephemeralPublic"], trace["ekPublic"], "§4.1 step 2 (first 32 drawn)")
        report.eq(where, "ikm", case["ikm"], ff(32) + b"".join(trace["dh"]) + ss, "§4.1 steps 3-5")
        report.eq(where, "sharedSecret (SK)", case["sharedSecret"], trace["sk"], "§4.1 step 5")
        report.eq(where, "associatedData", case["associatedData"], trace["ad"], "§4.1 step 6")
        report.eq(where, "aliceRatchetPublic", case["aliceRatchetPublic"], trace["ratchetPublic"], "§4.1 step 7")
        wire = state.encrypt(H(case["plaintext"]), rng)
        report.eq(where, "preKeyMessage", case["preKeyMessage"], wire, "§5.3 + §6.2")
        # Bob's side from the committed bytes (§4.2)
        bob = Bob(keys)
        btrace = {}
        try:
            got = bob.decrypt_prekey_message("alice", H(case["preKeyMessage"]),
                                             DeterministicRandom(H(case["bobRandomSeed"])), btrace)
            report.eq(where, "Bob plaintext", case["plaintext"], got, "§4.2")
            report.eq(where, "Bob SK", case["sharedSecret"], btrace["sk"], "§4.2 step 4")
            report.eq(where, "OPK deleted", case["useOneTimePreKey"], k["opkId"] not in keys.opks, "§4.2 step 6")
        except ProtocolError as e:
            report.eq(where, "Bob decrypts", "ok", f"rejected: {e}", "§4.2")

    for inv in doc["invalidMessages"]:
        keys = bob_keys()
        bob = Bob(keys)
        data = H(inv["preKeyMessage"])
        code = expect_reject(report, f"invalid message '{inv['name']}'", "§4.2 / §6.2",
                             lambda: bob.decrypt_prekey_message("alice", data, DeterministicRandom(b"fresh bob")))
        report.notes.append(f"invalid message '{inv['name']}': Python error {code}")
        report.eq(f"invalid message '{inv['name']}'", "nothing stored", True,
                  not any(r.states for r in bob.records.values()) and k["opkId"] in keys.opks, "§4.2 step 6")

    for inv in doc["invalidBundles"]:
        keys = bob_keys()
        bundle = keys.bundle(k["opkId"])
        if "spkSignature" in inv:
            bundle["spkSignature"] = H(inv["spkSignature"])
        if "pqspkSignature" in inv:
            bundle["pqspkSignature"] = H(inv["pqspkSignature"])
        code = expect_reject(report, f"invalid bundle '{inv['name']}'", "§4.1 step 1",
                             lambda: alice_init(alice, bundle, DeterministicRandom(b"x"), lambda pk: mlkem_encaps(pk)))
        report.eq(f"invalid bundle '{inv['name']}'", "error", "invalidSignature", code, "§4.1 step 1")


def check(paths):
    """Recomputes every expected output of the Swift vector files; prints each mismatch."""
    import glob
    if not paths:
        paths = sorted(p for p in glob.glob(os.path.join(VECTORS, "*.json"))
                       if os.path.basename(p) != "python-reference.json")
    if not paths:
        print("no Swift vector files yet in", os.path.relpath(VECTORS, ROOT))
        return 0
    mismatches = 0
    for path in paths:
        name = os.path.basename(path)
        doc = json.load(open(path))
        report = Report(name)
        checker = CHECKERS.get(name)
        if checker is None:
            print(f"{name}: no checker (top-level keys: {sorted(doc) if isinstance(doc, dict) else type(doc)})")
            continue
        checker(doc, report)
        report.summary()
        mismatches += len(report.mismatches)
    print(f"TOTAL mismatches: {mismatches}")
    return 1 if mismatches else 0


@checker("ratchet-conversation.json")
def check_ratchet(doc, report):
    pq = json.load(open(os.path.join(VECTORS, "pqxdh.json")))
    k = pq["keys"]
    setup_name = doc["setup"].split("#")[1]
    case = next(c for c in pq["cases"] if c["name"] == setup_name)
    alice = Identity(H(k["aliceIdentitySeed"]))
    keys = BobKeys(H(k["bobIdentitySeed"]), k["spkId"], H(k["spkPrivate"]), {k["opkId"]: H(k["opkPrivate"])},
                   k["pqspkId"], H(k["pqspkSeed"]))
    rngs = {"alice": DeterministicRandom(H(doc["aliceRandomSeed"])), "bob": DeterministicRandom(H(doc["bobRandomSeed"]))}
    report.eq("setup", "aliceRandomSeed == pqxdh case seed", case["aliceRandomSeed"], doc["aliceRandomSeed"], "description")
    bundle = keys.bundle(k["opkId"] if case["useOneTimePreKey"] else None)
    ct, ss = H(case["kemCiphertext"]), H(case["kemSharedSecret"])
    alice_record = SessionRecord()
    alice_record.promote(alice_init(alice, bundle, rngs["alice"], lambda pk: (ct, ss)))
    bob = Bob(keys)
    for i, step in enumerate(doc["steps"]):
        party, where = step["party"], f"step {i} {step['action']} {step['label']} ({step['party']})"
        rng = rngs[party]
        wire = H(step["wire"])

        def receive():
            if party == "bob" and wire[1] == TYPE_PREKEY:
                return bob.decrypt_prekey_message("alice", wire, rng)
            if party == "bob":
                return bob.records["alice"].decrypt_message(wire, rng)
            return alice_record.decrypt_message(wire, rng)

        def snapshot():
            rec = alice_record if party == "alice" else bob.records.get("alice")
            return serialize_session_record(rec) if rec and rec.states else None

        if step["action"] == "send":
            rec = alice_record if party == "alice" else bob.records["alice"]
            got = rec.encrypt(H(step["plaintext"]), rng)
            report.eq(where, "wire", step["wire"], got, "§5.3 / §6.1 / §6.2")
            if i == 0:
                report.notes.append("a0 equals pqxdh.json's prekey message: "
                                    f"{step['wire'] == case['preKeyMessage']} (description says it is)")
        elif step["action"] == "receive":
            try:
                report.eq(where, "plaintext", step["plaintext"], receive(), "§5.4")
            except ProtocolError as e:
                report.eq(where, "plaintext", step["plaintext"], f"rejected: {e}", "§5.4")
        else:
            before, drawn = snapshot(), rng.consumed
            code = expect_reject(report, where, "§5.4", receive)
            report.notes.append(f"{where}: Python error {code}")
            report.eq(where, "state unchanged", True, snapshot() == before, "§5.4 (decrypt works on a copy)")
            report.eq(where, "random bytes drawn by the rejection", 0, rng.consumed - drawn, "§5.4 step 3 / description")


@checker("sender-keys.json")
def check_sender_keys(doc, report):
    rng = DeterministicRandom(H(doc["senderRandomSeed"]))
    own = SenderKeyState.new_own(rng)
    report.eq("chain", "chainKey", doc["chainKey"], own.chain_key, "§8 (first 32 bytes drawn)")
    report.eq("chain", "signingSeed", doc["signingSeed"], own.signing_seed, "§8 (next 32 bytes drawn)")
    report.eq("chain", "chainId", doc["chainId"], own.chain_id, "§8 chainId = SHA-256(chainKey)")
    report.eq("chain", "signingPublic", doc["signingPublic"], own.signing_public, "§8 Ed25519")
    report.eq("chain", "distribution", doc["distribution"], own.distribution(), "§6.4")
    group_id = doc["groupId"]
    for m in doc["messages"]:
        where = f"message iteration {m['iteration']}"
        report.eq(where, "iteration", int(m["iteration"]), own.iteration, "§8")
        mk, _ = kdf_ck(own.chain_key)
        key, nonce = sender_message_keys(mk)
        report.eq(where, "messageKey", m["messageKey"], mk, "§8 KDF_CK")
        report.eq(where, "aesKey", m["aesKey"], key, "§8 HKDF Parley_SenderKey_v1 [0:32]")
        report.eq(where, "nonce", m["nonce"], nonce, "§8 HKDF Parley_SenderKey_v1 [32:44]")
        report.eq(where, "wire", m["wire"], group_encrypt(own, group_id, H(m["plaintext"]), rng), "§8 / §6.3")
    receiver = SenderKeyRecord()
    receiver.process_distribution(H(doc["distribution"]))
    for index in doc["receiveOrder"]:
        m = doc["messages"][index]
        where = f"receive message {index}"
        try:
            report.eq(where, "plaintext", m["plaintext"], receiver.decrypt(group_id, H(m["wire"])), "§8 decrypt")
        except ProtocolError as e:
            report.eq(where, "plaintext", m["plaintext"], f"rejected: {e}", "§8 decrypt")
    for inv in doc["invalidMessages"]:
        fresh = SenderKeyRecord()
        fresh.process_distribution(H(doc["distribution"]))
        before = serialize_sender_key_record(fresh.states)
        where = f"invalid '{inv['name']}'"
        code = expect_reject(report, where, "§8 / §6.3", lambda: fresh.decrypt(group_id, H(inv["wire"])))
        report.notes.append(f"{where}: Python error {code}")
        report.eq(where, "state unchanged", True, serialize_sender_key_record(fresh.states) == before, "§8")


class Report:
    def __init__(self, name):
        self.name, self.checked, self.mismatches, self.notes = name, 0, [], []

    def eq(self, where, field, expected, got, section):
        self.checked += 1
        if isinstance(expected, (bytes, bytearray)):
            expected = expected.hex()
        if isinstance(got, (bytes, bytearray)):
            got = got.hex()
        if expected != got:
            self.mismatches.append((where, field, expected, got, section))
            print(f"MISMATCH {self.name} {where} field={field} ({section})\n  expected: {expected}\n  got:      {got}")

    def summary(self):
        for note in self.notes:
            print(f"  note: {note}")
        print(f"{self.name}: {self.checked} values checked, {len(self.mismatches)} mismatches")


def main(argv):
    mode = argv[0] if argv else "selftest"
    if mode == "selftest":
        selftest()
        return 0
    if mode == "generate":
        selftest()
        generate()
        return 0
    if mode == "check":
        return check(argv[1:])
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
