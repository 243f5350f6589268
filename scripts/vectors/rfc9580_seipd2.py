#!/usr/bin/env python3
"""Writes Tests/ParleyPGPTests/Vectors/rfc9580/seipd2-chunks.json: SEIPD v2 packets of several chunks, made with
Python's `cryptography` (AES-OCB3, AES-GCM, HKDF) independently of ParleyPGP, for the chunking RFC 9580's own
samples (one chunk each) do not reach. Deterministic: every key, salt and literal comes from SHA-256 of a label.

Run: python3 scripts/vectors/rfc9580_seipd2.py
"""
import hashlib
import json
import os

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM, AESOCB3
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Tests", "ParleyPGPTests", "Vectors",
                   "rfc9580", "seipd2-chunks.json")
MODES = {2: ("ocb", 15, AESOCB3), 3: ("gcm", 12, AESGCM)}
CIPHERS = {7: 16, 8: 24, 9: 32}


def stream(label, length):
    out = b""
    counter = 0
    while len(out) < length:
        out += hashlib.sha256(f"{label}/{counter}".encode()).digest()
        counter += 1
    return out[:length]


def new_length(n):
    """An OpenPGP-format definite length (RFC 9580 §4.2.1)."""
    if n < 192:
        return bytes([n])
    if n < 8384:
        n -= 192
        return bytes([(n >> 8) + 192, n & 0xFF])
    return b"\xff" + n.to_bytes(4, "big")


def literal(data):
    body = b"b\x00" + b"\x00\x00\x00\x00" + data
    return b"\xcb" + new_length(len(body)) + body


def seipd2(label, cipher, mode, chunk_octet, plaintext):
    name, nonce_len, aead = MODES[mode]
    key_len = CIPHERS[cipher]
    session_key = stream(label + "/key", key_len)
    salt = stream(label + "/salt", 32)
    info = bytes([0xD2, 2, cipher, mode, chunk_octet])
    derived = HKDF(algorithm=hashes.SHA256(), length=key_len + nonce_len - 8, salt=salt, info=info).derive(session_key)
    message_key, iv = derived[:key_len], derived[key_len:]
    box = aead(message_key)
    size = 1 << (chunk_octet + 6)
    body = bytes([2, cipher, mode, chunk_octet]) + salt
    index = 0
    for start in range(0, len(plaintext), size):
        body += box.encrypt(iv + index.to_bytes(8, "big"), plaintext[start:start + size], info)
        index += 1
    body += box.encrypt(iv + index.to_bytes(8, "big"), b"", info + len(plaintext).to_bytes(8, "big"))
    return {
        "name": label, "cipher": cipher, "mode": name, "chunk_size_octet": chunk_octet, "chunks": index,
        "session_key": session_key.hex(), "literal_length": len(plaintext_data[label]),
        "literal_sha256": hashlib.sha256(plaintext_data[label]).hexdigest(),
        "message": (b"\xd2" + new_length(len(body)) + body).hex(),
    }


plaintext_data = {}
vectors = []
for label, cipher, mode, octet, length in [
    ("ocb-aes256-5-chunks", 9, 2, 0, 300), ("gcm-aes128-4-chunks", 7, 3, 0, 250),
    ("ocb-aes128-exact-multiple", 7, 2, 0, 128 - 8), ("ocb-aes192-one-byte-chunks-of-128", 8, 2, 1, 1000),
    ("gcm-aes256-empty-literal", 9, 3, 0, 0), ("ocb-aes256-64k-chunks", 9, 2, 10, 70000),
]:
    data = stream(label + "/data", length)
    plaintext_data[label] = data
    vectors.append(seipd2(label, cipher, mode, octet, literal(data)))

with open(OUT, "w") as f:
    json.dump({"source": "scripts/vectors/rfc9580_seipd2.py (Python cryptography: AESOCB3, AESGCM, HKDF)",
               "vectors": vectors}, f, indent=1)
    f.write("\n")
print(f"{len(vectors)} vectors -> {OUT}")
