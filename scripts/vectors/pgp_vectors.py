#!/usr/bin/env python3
"""Known-answer vectors for ParleyPGP's S2K and CRC-24, from Python's hashlib (independent of Swift).

Writes Tests/ParleyPGPTests/Vectors/s2k.json and crc24.json. RFC 4880 §3.7.1 and §6.1.
"""
import hashlib, json, os

OUT = os.path.join(os.path.dirname(__file__), "..", "..", "Tests", "ParleyPGPTests", "Vectors")
HASHES = {2: "sha1", 8: "sha256", 9: "sha384", 10: "sha512"}


def s2k(kind, hash_id, salt, count_byte, passphrase, length):
    key, context = b"", 0
    while len(key) < length:
        h = hashlib.new(HASHES[hash_id])
        h.update(b"\0" * context)
        if kind == 0:
            h.update(passphrase)
        elif kind == 1:
            h.update(salt + passphrase)
        else:
            count = (16 + (count_byte & 15)) << ((count_byte >> 4) + 6)
            unit = salt + passphrase
            count = max(count, len(unit))
            data = unit * (count // len(unit) + 1)
            h.update(data[:count])
        key += h.digest()
        context += 1
    return key[:length]


def crc24(data):
    crc = 0xB704CE
    for b in data:
        crc ^= b << 16
        for _ in range(8):
            crc <<= 1
            if crc & 0x1000000:
                crc ^= 0x1864CFB
    return crc & 0xFFFFFF


cases = []
salt = bytes.fromhex("a1b2c3d4e5f60718")
for kind, hash_id, count_byte, length, pw in [
    (0, 2, 0, 16, b"hello"), (0, 8, 0, 32, b"hello"), (1, 2, 0, 16, b"pass phrase"),
    (1, 10, 0, 24, b"pass phrase"), (3, 2, 0x60, 16, b"correct horse"), (3, 8, 0x60, 32, b"correct horse"),
    (3, 10, 0x00, 32, b"x"), (3, 2, 0x10, 32, b"sha1 needs two contexts for 32 bytes"),
    (3, 9, 0x65, 24, "pässwörd".encode()),
]:
    cases.append({"type": kind, "hash": hash_id, "salt": salt.hex() if kind else "", "count": count_byte,
                  "passphrase": pw.hex(), "length": length, "key": s2k(kind, hash_id, salt, count_byte, pw, length).hex()})
json.dump(cases, open(os.path.join(OUT, "s2k.json"), "w"), indent=1)
crcs = [{"data": d.hex(), "crc": crc24(d)} for d in [b"", b"a", b"123456789", bytes(range(256)) * 3]]
json.dump(crcs, open(os.path.join(OUT, "crc24.json"), "w"), indent=1)
print("wrote", len(cases), "S2K and", len(crcs), "CRC-24 vectors")
