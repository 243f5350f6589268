#!/usr/bin/env python3
"""Independent generator of the attachment-format vectors (docs/FORMATS.md §16, "Parley attachment v1").

Written from the document with Python's `cryptography`, not from the Swift code, so the committed
vectors check ParleyClient's attachment cipher against a second implementation.
Run: python3 scripts/vectors/parley_attachment_vectors.py
It rewrites Tests/ParleyClientTests/Vectors/attachment-v1.json. Tests never run it.

Plaintexts are described, not stored: byte i of a plaintext of length n is (i * 7 + 3) mod 256.
Multi-chunk ciphertexts are pinned by SHA-256 (a full hex dump would be megabytes); invalid
vectors are a valid ciphertext plus byte-level edits, each described below.
"""
import hashlib
import json
import os
import struct

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

OUT = os.path.join(os.path.dirname(__file__), "..", "..", "Tests", "ParleyClientTests", "Vectors", "attachment-v1.json")
CHUNK = 65536
TAG = 16
HEADER = 21


def det(label, n):
    out, counter = b"", 0
    while len(out) < n:
        out += hashlib.sha256(label.encode() + struct.pack(">Q", counter)).digest()
        counter += 1
    return out[:n]


def plaintext(n):
    return bytes((i * 7 + 3) % 256 for i in range(n))


def seal(data, key, salt, version=1):
    header = b"PRLA" + bytes([version]) + salt
    kp = HKDF(algorithm=hashes.SHA256(), length=32, salt=salt, info=b"parley-attachment-v1/payload").derive(key)
    aead = AESGCM(kp)
    chunks = [data[i:i + CHUNK] for i in range(0, len(data), CHUNK)] or [b""]
    out = header
    for i, chunk in enumerate(chunks):
        last = i == len(chunks) - 1
        nonce = i.to_bytes(11, "big") + (b"\x01" if last else b"\x00")
        out += aead.encrypt(nonce, chunk, header)
    return out


def size_of(n):
    return HEADER + n + TAG * max(1, -(-n // CHUNK))


valid, invalid = [], []
bases = {}
for n in (0, 1, 100, CHUNK - 1, CHUNK, CHUNK + 1, 2 * CHUNK + 18928):
    key, salt = det(f"attachment key {n}", 32), det(f"attachment salt {n}", 16)
    ct = seal(plaintext(n), key, salt)
    assert len(ct) == size_of(n)
    entry = {"name": f"{n} bytes", "key": key.hex(), "salt": salt.hex(), "plaintext_size": n,
             "ciphertext_size": len(ct), "ciphertext_sha256": hashlib.sha256(ct).hexdigest()}
    if len(ct) <= 400:
        entry["ciphertext"] = ct.hex()
    valid.append(entry)
    bases[n] = (key, salt, ct)


def bad(name, error, n, edits, plaintext_size=None, key=None):
    k, _, _ = bases[n]
    invalid.append({"name": name, "error": error, "base": f"{n} bytes", "key": (key or k).hex(),
                    "plaintext_size": n if plaintext_size is None else plaintext_size, "edits": edits})


three = 2 * CHUNK + 18928
bad("flipped bit in the first chunk", "cannotDecrypt", 100, [{"op": "xor", "offset": HEADER + 3, "value": 1}])
bad("flipped bit in the tag", "cannotDecrypt", 100, [{"op": "xor", "offset": size_of(100) - 1, "value": 0x80}])
bad("salt changed (other payload key)", "cannotDecrypt", 100, [{"op": "xor", "offset": 5, "value": 0xFF}])
bad("wrong key", "cannotDecrypt", 100, [], key=det("some other key", 32))
bad("magic changed", "malformed", 100, [{"op": "xor", "offset": 0, "value": 0x20}])
bad("version 2", "unsupportedVersion", 100, [{"op": "xor", "offset": 4, "value": 0x03}])
bad("truncated by one byte", "malformed", 100, [{"op": "truncate", "length": size_of(100) - 1}])
bad("one byte appended", "malformed", 100, [{"op": "append", "hex": "00"}])
bad("header only", "malformed", 0, [{"op": "truncate", "length": HEADER}])
bad("cut at a chunk boundary (last flag says more follows)", "cannotDecrypt", CHUNK + 1,
    [{"op": "truncate", "length": HEADER + CHUNK + TAG}], plaintext_size=CHUNK)
bad("middle chunk dropped", "cannotDecrypt", three,
    [{"op": "cut", "from": HEADER + CHUNK + TAG, "to": HEADER + 2 * (CHUNK + TAG)}], plaintext_size=CHUNK + 18928)
bad("first two chunks swapped", "cannotDecrypt", three,
    [{"op": "swap", "a": HEADER, "b": HEADER + CHUNK + TAG, "length": CHUNK + TAG}])
bad("flipped bit in the last chunk", "cannotDecrypt", three, [{"op": "xor", "offset": size_of(three) - 40, "value": 4}])

out = {"source": "scripts/vectors/parley_attachment_vectors.py",
       "plaintext": "byte i of an n-byte plaintext is (i * 7 + 3) mod 256",
       "valid": valid, "invalid": invalid}
with open(OUT, "w") as f:
    json.dump(out, f, indent=1)
    f.write("\n")
print("wrote", os.path.normpath(OUT))
