#!/usr/bin/env python3
"""Independent generator of ParleyFiles known-answer vectors.

Written from docs/FORMATS.md §8, docs/FORMATS.md §9 and
docs/FORMATS.md §10 with Python's `cryptography` package (48+, for ML-KEM),
not from the Swift code, so the committed vectors check the Swift implementation
against a second implementation of the documents.
Run: python3 scripts/vectors/parley_files_vectors.py
It rewrites the JSON files in Tests/ParleyFilesTests/Vectors/. Tests never run it.
"""
import base64
import hashlib
import hmac
import json
import os
import struct
import unicodedata

from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, mlkem, x25519
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from cryptography.hazmat.primitives.kdf.scrypt import Scrypt
from cryptography.hazmat.primitives.kdf.x963kdf import X963KDF

OUT = os.path.join(os.path.dirname(__file__), "..", "..", "Tests", "ParleyFilesTests", "Vectors")
P256_ORDER = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551


def det(label, n):
    """SHA-256(label || u64 counter) blocks: the same stream as Swift's DeterministicRandomSource."""
    out = b""
    counter = 0
    while len(out) < n:
        out += hashlib.sha256(label.encode() + struct.pack(">Q", counter)).digest()
        counter += 1
    return out[:n]


# ---------------------------------------------------------------- Apple ECIES

def p256_key(label):
    scalar = int.from_bytes(det(label, 32), "big") % (P256_ORDER - 1) + 1
    return ec.derive_private_key(scalar, ec.SECP256R1())


def p256_point(public_key):
    return public_key.public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)


def p256_scalar(private_key):
    return private_key.private_numbers().private_value.to_bytes(32, "big")


def ecies_seal(variant, recipient_public, ephemeral, plaintext):
    e = p256_point(ephemeral.public_key())
    z = ephemeral.exchange(ec.ECDH(), recipient_public)
    if variant == "cofactor":
        key = X963KDF(algorithm=hashes.SHA256(), length=16, sharedinfo=e).derive(z)
        iv = bytes(16)
    else:
        k = X963KDF(algorithm=hashes.SHA256(), length=32, sharedinfo=e).derive(z)
        key, iv = k[:16], k[16:]
    return e + AESGCM(key).encrypt(iv, plaintext, None)


def pem_text(private_key, fmt):
    return private_key.private_bytes(serialization.Encoding.PEM, fmt, serialization.NoEncryption()).decode()


def ecies_vectors():
    valid = []
    cases = [("cofactor", b""), ("cofactor", b"hello FileLock"), ("cofactor", det("ecies-key", 32)),
             ("variable-iv", b""), ("variable-iv", b"hello FileLock"), ("variable-iv", det("ecies-key", 32)),
             ("variable-iv", det("ecies-long", 1000))]
    for i, (variant, plaintext) in enumerate(cases):
        recipient = p256_key(f"ecies-recipient-{i % 2}")
        ephemeral = p256_key(f"ecies-ephemeral-{i}")
        point = p256_point(recipient.public_key())
        valid.append({
            "variant": variant,
            "recipientPrivate": p256_scalar(recipient).hex(),
            "recipientPublic": point.hex(),
            "recipientAppleRawBase64": base64.b64encode(point + p256_scalar(recipient)).decode(),
            "recipientPKCS8PEM": pem_text(recipient, serialization.PrivateFormat.PKCS8),
            "recipientSEC1PEM": pem_text(recipient, serialization.PrivateFormat.TraditionalOpenSSL),
            "recipientSPKIPEM": recipient.public_key().public_bytes(
                serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo).decode(),
            "recipientFileLockPEM": "-----BEGIN PUBLIC KEY-----\n" + base64.b64encode(point).decode()
                                    + "\n-----END PUBLIC KEY-----\n",
            "ephemeralPrivate": p256_scalar(ephemeral).hex(),
            "plaintext": plaintext.hex(),
            "blob": ecies_seal(variant, recipient.public_key(), ephemeral, plaintext).hex(),
        })
    base = valid[2]
    blob = bytes.fromhex(base["blob"])
    other = p256_key("ecies-someone-else")

    def flip(i):
        b = bytearray(blob)
        b[i] ^= 0x01
        return bytes(b).hex()

    invalid = [
        {"name": "wrong recipient key", "variant": "cofactor", "recipientPrivate": p256_scalar(other).hex(),
         "blob": base["blob"], "error": "decrypt"},
        {"name": "wrong variant", "variant": "variable-iv", "recipientPrivate": base["recipientPrivate"],
         "blob": base["blob"], "error": "decrypt"},
        {"name": "flipped bit in ciphertext", "variant": "cofactor", "recipientPrivate": base["recipientPrivate"],
         "blob": flip(70), "error": "decrypt"},
        {"name": "flipped bit in tag", "variant": "cofactor", "recipientPrivate": base["recipientPrivate"],
         "blob": flip(len(blob) - 1), "error": "decrypt"},
        {"name": "point not on curve", "variant": "cofactor", "recipientPrivate": base["recipientPrivate"],
         "blob": flip(40), "error": "malformed"},
        {"name": "compressed point prefix", "variant": "cofactor", "recipientPrivate": base["recipientPrivate"],
         "blob": ("02" + base["blob"][2:]), "error": "malformed"},
        {"name": "shorter than 81 bytes", "variant": "cofactor", "recipientPrivate": base["recipientPrivate"],
         "blob": blob[:80].hex(), "error": "malformed"},
        {"name": "empty", "variant": "cofactor", "recipientPrivate": base["recipientPrivate"],
         "blob": "", "error": "malformed"},
    ]
    return {"valid": valid, "invalid": invalid}


# ---------------------------------------------------------------- FileLock

def filelock_package(recipient_public, ephemeral, file_key, nonce, plaintext, variant="cofactor"):
    wrapped = ecies_seal(variant, recipient_public, ephemeral, file_key)
    sealed = AESGCM(file_key).encrypt(nonce, plaintext, None)
    ciphertext, tag = sealed[:-16], sealed[-16:]
    out = b""
    for part in (wrapped, nonce, ciphertext, tag):
        out += struct.pack(">I", len(part)) + part
    return out


def filelock_vectors():
    recipient = p256_key("filelock-recipient")
    valid = []
    for i, (plaintext, variant) in enumerate([(b"", "cofactor"), (b"FileLock says hi\n", "cofactor"),
                                              (det("filelock-body", 5000), "cofactor"),
                                              (b"variable IV wrap", "variable-iv")]):
        ephemeral = p256_key(f"filelock-ephemeral-{i}")
        file_key, nonce = det(f"filelock-key-{i}", 32), det(f"filelock-nonce-{i}", 12)
        valid.append({
            "recipientPrivate": p256_scalar(recipient).hex(),
            "recipientPublic": p256_point(recipient.public_key()).hex(),
            "ephemeralPrivate": p256_scalar(ephemeral).hex(), "wrapVariant": variant,
            "fileKey": file_key.hex(), "nonce": nonce.hex(), "plaintext": plaintext.hex(),
            "package": filelock_package(recipient.public_key(), ephemeral, file_key, nonce, plaintext, variant).hex(),
        })
    good = bytes.fromhex(valid[1]["package"])
    key = valid[1]["recipientPrivate"]

    def flip(i):
        b = bytearray(good)
        b[i] ^= 0x01
        return bytes(b).hex()

    n = len(bytes.fromhex(valid[1]["plaintext"]))
    ct_at = 4 + 113 + 4 + 12 + 4
    invalid = [
        {"name": "wrong key", "recipientPrivate": p256_scalar(p256_key("nobody")).hex(), "package": good.hex(), "error": "decrypt"},
        {"name": "flipped bit in wrapped key", "recipientPrivate": key, "package": flip(4 + 80), "error": "decrypt"},
        {"name": "flipped bit in nonce", "recipientPrivate": key, "package": flip(4 + 113 + 4 + 1), "error": "decrypt"},
        {"name": "flipped bit in ciphertext", "recipientPrivate": key, "package": flip(ct_at), "error": "decrypt"},
        {"name": "flipped bit in tag", "recipientPrivate": key, "package": flip(len(good) - 1), "error": "decrypt"},
        {"name": "wrapped-key length 112", "recipientPrivate": key, "package": flip(3), "error": "malformed"},
        {"name": "nonce length 13", "recipientPrivate": key, "package": flip(4 + 113 + 3), "error": "malformed"},
        {"name": "ciphertext length too long", "recipientPrivate": key, "package": flip(ct_at - 2), "error": "malformed"},
        {"name": "trailing byte", "recipientPrivate": key, "package": (good + b"\x00").hex(), "error": "malformed"},
        {"name": "truncated tag", "recipientPrivate": key, "package": good[:-1].hex(), "error": "malformed"},
        {"name": "only the wrapped key", "recipientPrivate": key, "package": good[:117].hex(), "error": "malformed"},
        {"name": "empty", "recipientPrivate": key, "package": "", "error": "malformed"},
    ]
    assert n > 0
    return {"valid": valid, "invalid": invalid}


# ---------------------------------------------------------------- Parley v1

MAGIC = b"PRLYFILE"
CHUNK = 65536


def hkdf(ikm, salt, info, length=32):
    return HKDF(algorithm=hashes.SHA256(), length=length, salt=salt, info=info).derive(ikm)


def wrap(kw, file_key):
    return AESGCM(kw).encrypt(bytes(12), file_key, None)


def stanza_p256(recipient_public, ephemeral, file_key):
    return 0x01, ecies_seal("variable-iv", recipient_public, ephemeral, file_key)


def x25519_raw(key):
    return key.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)


def stanza_x25519(recipient_public_raw, ephemeral, file_key):
    e = x25519_raw(ephemeral)
    z = ephemeral.exchange(x25519.X25519PublicKey.from_public_bytes(recipient_public_raw))
    kw = hkdf(z, e + recipient_public_raw, b"parley-file-v1/x25519")
    return 0x02, e + wrap(kw, file_key)


def xwing_keys(seed):
    """draft-connolly-cfrg-xwing-kem-06 expandDecapsulationKey."""
    expanded = hashlib.shake_256(seed).digest(96)
    m = mlkem.MLKEM768PrivateKey.from_seed_bytes(expanded[:64])
    x = x25519.X25519PrivateKey.from_private_bytes(expanded[64:96])
    public = m.public_key().public_bytes_raw() + x25519_raw(x)
    return public


def xwing_encaps(public, eseed):
    pk_m, pk_x = public[:1184], public[1184:]
    ss_m, ct_m = mlkem.MLKEM768PublicKey.from_public_bytes(pk_m).encapsulate()
    ek = x25519.X25519PrivateKey.from_private_bytes(eseed)
    ct_x = x25519_raw(ek)
    ss_x = ek.exchange(x25519.X25519PublicKey.from_public_bytes(pk_x))
    ss = hashlib.sha3_256(ss_m + ss_x + ct_x + pk_x + b"\\.//^\\").digest()
    return ct_m + ct_x, ss


def stanza_xwing(public, eseed, file_key):
    ct, ss = xwing_encaps(public, eseed)
    kw = hkdf(ss, b"", b"parley-file-v1/xwing")
    return 0x03, ct + wrap(kw, file_key)


def scrypt_key(passphrase, salt, log_n, lanes=1):
    p = unicodedata.normalize("NFC", passphrase).encode()
    return Scrypt(salt=b"parley-file-v1/scrypt" + salt, length=32, n=1 << log_n, r=8, p=lanes).derive(p)


def stanza_scrypt(passphrase, salt, log_n, file_key):
    return 0x04, salt + bytes([log_n]) + wrap(scrypt_key(passphrase, salt, log_n), file_key)


def stanza_scrypt_lanes(passphrase, salt, log_n, lanes, file_key):
    return 0x05, salt + bytes([log_n, lanes]) + wrap(scrypt_key(passphrase, salt, log_n, lanes), file_key)


def header_bytes(stanzas):
    out = MAGIC + b"\x01\x00" + struct.pack(">H", len(stanzas))
    for kind, body in stanzas:
        out += bytes([kind]) + struct.pack(">H", len(body)) + body
    return out


def chunk_nonce(i, last):
    return i.to_bytes(11, "big") + (b"\x01" if last else b"\x00")


def v1_file(stanzas, file_key, payload_nonce, plaintext, chunk_plaintexts=None):
    header = header_bytes(stanzas)
    mac = hmac.new(hkdf(file_key, b"", b"parley-file-v1/header-mac"), header, hashlib.sha256).digest()
    kp = hkdf(file_key, payload_nonce, b"parley-file-v1/payload")
    if chunk_plaintexts is None:
        chunk_plaintexts = [plaintext[i:i + CHUNK] for i in range(0, len(plaintext), CHUNK)] or [b""]
    out = header + mac + payload_nonce
    sealed = []
    for i, part in enumerate(chunk_plaintexts):
        sealed.append(AESGCM(kp).encrypt(chunk_nonce(i, i == len(chunk_plaintexts) - 1), part, None))
    return out + b"".join(sealed), len(header), sealed


def v1_vectors():
    p256 = p256_key("v1-p256-recipient")
    p256_pub = p256.public_key()
    x_priv = det("v1-x25519-recipient", 32)
    x_pub = x25519_raw(x25519.X25519PrivateKey.from_private_bytes(x_priv))
    xw_seed = det("v1-xwing-recipient", 32)
    xw_pub = xwing_keys(xw_seed)
    passphrase = "correct horse battery staple"

    valid = []

    def add(name, identity, stanza_inputs, stanzas, length_or_bytes, include_file=True):
        file_key, payload_nonce = det(f"{name}-file-key", 32), det(f"{name}-payload-nonce", 16)
        plaintext = det(f"{name}-plaintext", length_or_bytes) if isinstance(length_or_bytes, int) else length_or_bytes
        built = [make(file_key) for make in stanzas]
        data, header_length, _ = v1_file(built, file_key, payload_nonce, plaintext)
        valid.append({
            "name": name, "identity": identity, "stanzas": stanza_inputs,
            "fileKey": file_key.hex(), "payloadNonce": payload_nonce.hex(),
            "plaintextSeed": f"{name}-plaintext" if isinstance(length_or_bytes, int) else None,
            "plaintextLength": len(plaintext), "headerLength": header_length,
            "file": data.hex(), "fileSHA256": hashlib.sha256(data).hexdigest(),
        })
        return data

    p256_id = {"kind": "p256", "key": p256_scalar(p256).hex()}
    x_id = {"kind": "x25519", "key": x_priv.hex()}
    xw_id = {"kind": "xwing", "key": xw_seed.hex()}
    pw_id = {"kind": "passphrase", "passphrase": passphrase}

    def p256_stanza(label):
        eph = p256_key(label)
        return ({"kind": "p256", "recipient": p256_point(p256_pub).hex(), "ephemeral": p256_scalar(eph).hex()},
                lambda fk: stanza_p256(p256_pub, eph, fk))

    def x_stanza(label, pub=x_pub):
        eph_raw = det(label, 32)
        eph = x25519.X25519PrivateKey.from_private_bytes(eph_raw)
        return ({"kind": "x25519", "recipient": pub.hex(), "ephemeral": eph_raw.hex()},
                lambda fk: stanza_x25519(pub, eph, fk))

    def xw_stanza(label):
        eseed = det(label, 32)
        cache = {}

        def make(fk):
            if "ct" not in cache:
                cache["ct"], cache["ss"] = xwing_encaps(xw_pub, eseed)
            kw = hkdf(cache["ss"], b"", b"parley-file-v1/xwing")
            return 0x03, cache["ct"] + wrap(kw, fk)
        return ({"kind": "xwing", "recipient": xw_pub.hex()}, make)

    def pw_stanza(label, log_n=10):
        salt = det(label, 16)
        return ({"kind": "passphrase", "passphrase": passphrase, "salt": salt.hex(), "logN": log_n},
                lambda fk: stanza_scrypt(passphrase, salt, log_n, fk))

    def lanes_stanza(label, log_n=10, lanes=3):
        salt = det(label, 16)
        return ({"kind": "passphrase", "passphrase": passphrase, "salt": salt.hex(), "logN": log_n, "lanes": lanes},
                lambda fk: stanza_scrypt_lanes(passphrase, salt, log_n, lanes, fk))

    def case(name, identity, parts, length):
        return add(name, identity, [p[0] for p in parts], [p[1] for p in parts], length)

    case("p256-small", p256_id, [p256_stanza("eph-1")], 1000)
    case("x25519-empty", x_id, [x_stanza("eph-2")], 0)
    case("x25519-one-byte", x_id, [x_stanza("eph-3")], 1)
    case("x25519-exact-chunk", x_id, [x_stanza("eph-4")], CHUNK)
    multi = case("x25519-three-chunks", x_id, [x_stanza("eph-5")], 2 * CHUNK + 5)
    case("xwing-small", xw_id, [xw_stanza("eph-6")], 300)
    case("passphrase-small", pw_id, [pw_stanza("salt-7")], 77)
    other_x = x25519_raw(x25519.X25519PrivateKey.from_private_bytes(det("v1-x25519-other", 32)))
    case("multi-recipient-classic", x_id,
         [p256_stanza("eph-8"), x_stanza("eph-9", other_x), x_stanza("eph-10"), pw_stanza("salt-11")], 5000)
    case("multi-recipient-pq-with-passphrase", pw_id, [xw_stanza("eph-12"), pw_stanza("salt-13")], 10)
    case("passphrase-lanes", pw_id, [lanes_stanza("salt-14")], 300)
    case("x25519-with-passphrase-lanes", x_id, [x_stanza("eph-15"), lanes_stanza("salt-16", lanes=2)], 40)

    # ---- invalid cases, all built on the three-chunk X25519 file.
    base = multi
    base_vec = next(v for v in valid if v["name"] == "x25519-three-chunks")
    hl = base_vec["headerLength"]
    payload_at = hl + 32 + 16
    sealed_len = CHUNK + 16
    invalid = []

    def bad(name, data, error, identity=x_id):
        invalid.append({"name": name, "identity": identity, "file": data.hex(),
                        "fromValid": None, "edits": None, "error": error})

    def edit(name, edits, error, identity=x_id, truncate=None, append=None, source="x25519-three-chunks"):
        """Edits of the big base file are stored as operations to keep the JSON small."""
        invalid.append({"name": name, "identity": identity, "file": None, "fromValid": source,
                        "edits": {"flips": edits, "truncate": truncate, "append": append.hex() if append else None},
                        "error": error})

    regions = [("magic", 0, "notParley"), ("version", 8, "unsupported"), ("flags", 9, "unsupported"),
               ("stanza kind", 12, "malformed"), ("stanza length", 14, "malformed"),
               ("stanza ephemeral", 15, "decrypt"), ("stanza wrapped key", 15 + 40, "decrypt"),
               ("header MAC", hl + 3, "decrypt"), ("payload nonce", hl + 32 + 5, "decrypt"),
               ("first chunk ciphertext", payload_at + 10, "decrypt"),
               ("first chunk tag", payload_at + sealed_len - 1, "decrypt"),
               ("middle chunk", payload_at + sealed_len + 100, "decrypt"),
               ("last chunk", len(base) - 3, "decrypt")]
    for name, at, error in regions:
        edit(f"flipped bit in {name}", [at], error)
    edit("count zero", [], "malformed", truncate=None)
    invalid[-1]["edits"]["set"] = [[10, 0], [11, 0]]
    # The second "stanza" is read from the MAC: its first byte decides whether the kind is unknown.
    edit("count two with one stanza", [], "malformed" if base[hl] in (1, 2, 3, 4, 5) else "unsupported")
    invalid[-1]["edits"]["set"] = [[11, 2]]
    for k in range(0, 3):
        # With no chunk at all the payload is structurally missing; otherwise the new last chunk
        # was sealed with lastFlag 00 and fails to authenticate.
        edit(f"truncated at chunk boundary {k}", [], "malformed" if k == 0 else "decrypt",
             truncate=payload_at + k * sealed_len)
    edit("truncated inside the last tag", [], "decrypt", truncate=len(base) - 1)
    edit("truncated inside the header", [], "malformed", truncate=20)
    edit("truncated inside the MAC", [], "malformed", truncate=hl + 10)
    edit("chunk appended", [], "decrypt", append=det("extra", sealed_len))
    edit("5 bytes appended to a short last chunk", [], "decrypt", append=b"\x00" * 5)
    edit("5 bytes after a full last chunk", [], "malformed", append=b"\x00" * 5, source="x25519-exact-chunk")
    edit("empty tag-only chunk appended", [], "decrypt", append=b"\x00" * 16)
    invalid.append({"name": "chunks 0 and 1 swapped", "identity": x_id, "file": None, "fromValid": "x25519-three-chunks",
                    "edits": {"flips": [], "truncate": None, "append": None,
                              "swap": [payload_at, payload_at + sealed_len, sealed_len]}, "error": "decrypt"})
    edit("wrong key", [], "decrypt", identity={"kind": "x25519", "key": det("v1-x25519-other", 32).hex()})
    edit("wrong kind of key", [], "noMatchingKind", identity=p256_id)
    pw_file = bytes.fromhex(next(v for v in valid if v["name"] == "passphrase-small")["file"])
    bad("wrong passphrase", pw_file, "decrypt", {"kind": "passphrase", "passphrase": "correct horse battery stapler"})

    # Header-level cases built with a valid MAC so only the rule can reject them.
    fk, pn = det("rule-file-key", 32), det("rule-payload-nonce", 16)
    xw = xw_stanza("eph-rule")[1](fk)
    xs = x_stanza("eph-rule-x")[1](fk)
    bad("post-quantum mixed with X25519", v1_file([xw, xs], fk, pn, b"mixed")[0], "malformed")
    ps = p256_stanza("eph-rule-p")[1](fk)
    bad("post-quantum mixed with P-256", v1_file([ps, xw], fk, pn, b"mixed")[0], "malformed", p256_id)
    pw1, pw2 = pw_stanza("salt-a")[1](fk), pw_stanza("salt-b")[1](fk)
    bad("two passphrase stanzas", v1_file([pw1, pw2], fk, pn, b"two")[0], "malformed", pw_id)
    bad("unknown stanza kind", v1_file([xs, (0x7F, b"\x00" * 10)], fk, pn, b"unknown")[0], "unsupported")
    bad("x25519 stanza of 79 bytes", v1_file([(0x02, xs[1][:79])], fk, pn, b"short")[0], "malformed")
    bad("empty last chunk after a full chunk",
        v1_file([xs], fk, pn, b"", chunk_plaintexts=[b"a" * CHUNK, b""])[0], "malformed")
    bad("short non-last chunk",
        v1_file([xs], fk, pn, b"", chunk_plaintexts=[b"a" * 100, b"b" * 100])[0], "decrypt")
    bad("last flag on first of two chunks",
        v1_file([xs], fk, pn, b"", chunk_plaintexts=[b"a" * CHUNK])[0]
        + AESGCM(hkdf(fk, pn, b"parley-file-v1/payload")).encrypt(chunk_nonce(1, True), b"tail", None),
        "decrypt")
    bad("scrypt work factor 21", v1_file([(0x04, det("s", 16) + bytes([21]) + bytes(48))], fk, pn, b"")[0],
        "malformed", pw_id)
    lanes_file = bytes.fromhex(next(v for v in valid if v["name"] == "passphrase-lanes")["file"])
    bad("wrong passphrase (lanes)", lanes_file, "decrypt", {"kind": "passphrase", "passphrase": "Correct horse battery staple"})
    pl = lanes_stanza("salt-c")[1](fk)
    bad("passphrase stanzas of both kinds", v1_file([pw1, pl], fk, pn, b"two")[0], "malformed", pw_id)
    for name, log_n, lanes in [("scrypt lanes 0", 10, 0), ("scrypt lanes 65", 10, 65),
                               ("scrypt memory factor 21 with lanes", 21, 2), ("scrypt memory factor 9 with lanes", 9, 2),
                               ("scrypt work over 2^21 (2^18 x 9 lanes)", 18, 9)]:
        bad(name, v1_file([(0x05, det("s", 16) + bytes([log_n, lanes]) + bytes(48))], fk, pn, b"")[0],
            "malformed", pw_id)
    bad("lanes stanza of 65 bytes", v1_file([(0x05, pl[1][:65])], fk, pn, b"short")[0], "malformed", pw_id)
    bad("only the magic", MAGIC, "malformed")
    bad("empty", b"", "notParley")
    return {"valid": valid, "invalid": invalid}


def write(name, data):
    os.makedirs(OUT, exist_ok=True)
    with open(os.path.join(OUT, name), "w") as f:
        json.dump(data, f, indent=1, ensure_ascii=False)
        f.write("\n")


if __name__ == "__main__":
    write("apple-ecies.json", ecies_vectors())
    write("filelock.json", filelock_vectors())
    write("file-v1.json", v1_vectors())
