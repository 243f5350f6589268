#!/usr/bin/env python3
"""Independent generator of ParleyCrypto known-answer vectors.

Written from docs/FORMATS.md with Python's `cryptography` package, not from the
Swift code, so the committed vectors check the Swift implementation against a
second implementation. Run: python3 scripts/vectors/parley_crypto_vectors.py
It rewrites the JSON files in Tests/ParleyCryptoTests/Vectors/. Tests never run it.
"""
import hashlib
import json
import os
import struct
import unicodedata

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from cryptography.hazmat.primitives.kdf.pbkdf2 import PBKDF2HMAC

OUT = os.path.join(os.path.dirname(__file__), "..", "..", "Tests", "ParleyCryptoTests", "Vectors")


def det(label, n):
    """Deterministic bytes so re-running gives identical files."""
    out = b""
    counter = 0
    while len(out) < n:
        out += hashlib.sha256(label.encode() + struct.pack(">Q", counter)).digest()
        counter += 1
    return out[:n]


def ecp1(password, salt, iterations, nonce, secret):
    normalized = unicodedata.normalize("NFC", password).encode("utf-8")
    key = PBKDF2HMAC(algorithm=hashes.SHA256(), length=32, salt=salt, iterations=iterations).derive(normalized)
    header = b"ECP1" + salt + struct.pack(">I", iterations)
    return header + nonce + AESGCM(key).encrypt(nonce, secret, header)


def envelope_vectors():
    valid = []
    cases = [
        ("correct horse battery staple", 1000, det("secret-1", 32)),
        ("pässwörd", 1000, det("secret-2", 32)),
        ("e\u0301t\u00e9", 1000, det("secret-3", 64)),  # decomposed é must equal composed
        ("\u00e9t\u00e9", 1000, det("secret-3", 64)),
        ("🔑 emoji key", 2000, b"x"),
        ("a" * 200, 1000, det("secret-4", 100)),
        ("default iterations", 600000, det("secret-5", 32)),
    ]
    for i, (password, iterations, secret) in enumerate(cases):
        salt, nonce = det(f"salt-{i}", 16), det(f"nonce-{i}", 12)
        valid.append({
            "password": password, "salt": salt.hex(), "iterations": iterations,
            "nonce": nonce.hex(), "secret": secret.hex(),
            "envelope": ecp1(password, salt, iterations, nonce, secret).hex(),
        })
    base = bytes.fromhex(valid[0]["envelope"])
    invalid = []

    def flip(index):
        b = bytearray(base)
        b[index] ^= 0x01
        return bytes(b)

    invalid.append({"name": "wrong password", "password": "Correct horse battery staple", "envelope": base.hex(), "error": "wrongPassword"})
    invalid.append({"name": "bad magic", "password": valid[0]["password"], "envelope": flip(0).hex(), "error": "corruptEnvelope"})
    invalid.append({"name": "ECP2 magic", "password": valid[0]["password"], "envelope": (b"ECP2" + base[4:]).hex(), "error": "corruptEnvelope"})
    for name, idx in [("salt", 4), ("iterations", 23), ("nonce", 24), ("ciphertext", 36), ("tag", len(base) - 1)]:
        invalid.append({"name": f"flipped bit in {name}", "password": valid[0]["password"], "envelope": flip(idx).hex(), "error": "wrongPassword"})
    for n in [0, 3, 4, 23, 24, 36, 51, 52]:
        invalid.append({"name": f"truncated to {n}", "password": valid[0]["password"], "envelope": base[:n].hex(), "error": "corruptEnvelope"})
    zero_iter = base[:20] + struct.pack(">I", 0) + base[24:]
    huge_iter = base[:20] + struct.pack(">I", 0xFFFFFFFF) + base[24:]
    invalid.append({"name": "zero iterations", "password": valid[0]["password"], "envelope": zero_iter.hex(), "error": "corruptEnvelope"})
    invalid.append({"name": "absurd iterations", "password": valid[0]["password"], "envelope": huge_iter.hex(), "error": "corruptEnvelope"})
    return {"valid": valid, "invalid": invalid}


def hkdf(ikm, info, length, salt=b"\x00" * 32):
    return HKDF(algorithm=hashes.SHA256(), length=length, salt=salt, info=info).derive(ikm)


def leading_zero_bits(digest):
    bits = 0
    for byte in digest:
        if byte == 0:
            bits += 8
            continue
        bits += 8 - byte.bit_length()
        break
    return bits


def pow_vectors():
    valid = []
    for i, bits in enumerate([0, 1, 8, 12, 16, 18]):
        challenge = det(f"challenge-{i}", 32)
        nonce = 0
        while leading_zero_bits(hashlib.sha256(challenge + struct.pack(">Q", nonce)).digest()) < bits:
            nonce += 1
        digest = hashlib.sha256(challenge + struct.pack(">Q", nonce)).digest()
        valid.append({"challenge": challenge.hex(), "difficulty": bits, "nonce": nonce,
                      "leadingZeroBits": leading_zero_bits(digest)})
    invalid = []
    for v in valid:
        if v["difficulty"] == 0:
            continue
        # The smallest solution means every smaller nonce fails; nonce-1 is a failing case.
        if v["nonce"] > 0:
            invalid.append({"challenge": v["challenge"], "difficulty": v["difficulty"], "nonce": v["nonce"] - 1})
    return {"valid": valid, "invalid": invalid}


def padded_size(length):
    needed = length + 5
    if needed > 65536:
        return -(-needed // 65536) * 65536
    bucket = 64
    while bucket < needed:
        bucket *= 2
    return bucket


def padding_vectors():
    valid = []
    for i, length in enumerate([0, 1, 59, 60, 100, 123, 124, 1000, 65531, 65532]):
        plaintext = det(f"pad-plain-{i}", length)
        total = padded_size(length)
        fill = det(f"pad-fill-{i}", total - length - 5)
        padded = b"\x01" + plaintext + fill + struct.pack(">I", len(fill))
        # Large vectors are kept as a digest to keep the file small.
        entry = {"plaintextSeed": f"pad-plain-{i}", "plaintextLength": length, "fillSeed": f"pad-fill-{i}",
                 "paddedLength": total, "paddedSHA256": hashlib.sha256(padded).hexdigest()}
        if total <= 256:
            entry["padded"] = padded.hex()
        valid.append(entry)
    good = b"\x01" + b"hi" + bytes(57) + struct.pack(">I", 57)
    invalid = [
        {"name": "empty", "padded": ""},
        {"name": "shorter than smallest bucket", "padded": good[:63].hex()},
        {"name": "not a bucket size", "padded": (good + b"\x00").hex()},
        {"name": "wrong marker", "padded": (b"\x02" + good[1:]).hex()},
        {"name": "zero marker", "padded": (b"\x00" + good[1:]).hex()},
        {"name": "pad length larger than buffer", "padded": (good[:60] + struct.pack(">I", 60)).hex()},
        {"name": "pad length 0xFFFFFFFF", "padded": (good[:60] + struct.pack(">I", 0xFFFFFFFF)).hex()},
        {"name": "non-canonical: 10-byte message in the 128 bucket", "padded": (b"\x01" + bytes(10) + bytes(113) + struct.pack(">I", 113)).hex()},
        {"name": "non-canonical: 3-byte message in the 128 bucket", "padded": (b"\x01" + bytes(3) + bytes(120) + struct.pack(">I", 120)).hex()},
    ]
    return {"valid": valid, "invalid": invalid}


def write(name, data):
    with open(os.path.join(OUT, name), "w") as f:
        json.dump(data, f, indent=2, ensure_ascii=False)
        f.write("\n")


if __name__ == "__main__":
    write("key-envelope-ecp1.json", envelope_vectors())
    write("proof-of-work.json", pow_vectors())
    write("message-padding.json", padding_vectors())
