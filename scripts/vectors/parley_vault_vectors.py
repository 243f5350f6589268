#!/usr/bin/env python3
"""Independent generator of ParleyVault known-answer vectors.

Written from docs/FORMATS.md "MainKey file" and "Vault sealed value" with Python's
`cryptography` package, not from the Swift code, so the committed vectors check the Swift
implementation against a second implementation of the document.
Run: python3 scripts/vectors/parley_vault_vectors.py
It rewrites the JSON files in Tests/ParleyVaultTests/Vectors/. Tests never run it.
"""
import hashlib
import json
import os
import struct
import unicodedata

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from cryptography.hazmat.primitives.kdf.scrypt import Scrypt

OUT = os.path.join(os.path.dirname(__file__), "..", "..", "Tests", "ParleyVaultTests", "Vectors")

MAGIC = b"PRLYMKEY"
VERSION = 1
MODE_NONE, MODE_PIN, MODE_HARDWARE = 0, 1, 2
SEAL_CONTEXT = b"Parley-vault-v1"
SUBKEY_PREFIX = b"Parley-vault-subkey-v1:"
CHECK_INFO = b"Parley-vault-key-check-v1"
# The software protector of the tests: nonce(12) || AES-GCM(kek, nonce, key, "parley-test-protector").
TEST_PROTECTOR_AD = b"parley-test-protector"


def det(label, n):
    """SHA-256(label || u64 counter) blocks: the same stream as Swift's DeterministicRandomSource."""
    out = b""
    counter = 0
    while len(out) < n:
        out += hashlib.sha256(label.encode() + struct.pack(">Q", counter)).digest()
        counter += 1
    return out[:n]


def hkdf(ikm, info, length):
    return HKDF(algorithm=hashes.SHA256(), length=length, salt=None, info=info).derive(ikm)


# ---------------------------------------------------------------- sealed values

def seal(key, binding, nonce, plaintext):
    ad = SEAL_CONTEXT + b"\x00" + binding.encode("utf-8")
    return b"\x01" + nonce + AESGCM(key).encrypt(nonce, plaintext, ad)


def sealed_vectors():
    key = det("vault-sealed-key", 32)
    other_key = det("vault-sealed-other-key", 32)
    cases = [
        ("empty", "sessions/ann@x.org.2", b""),
        ("short", "messages/42/body", b"hello, vault"),
        ("unicode-binding", "contacts/zoë@exämple.org", "Grüße 👍".encode("utf-8")),
        ("empty-binding", "", b"\x00\x01\x02"),
        ("long", "avatars/bob@x.org", det("vault-long-plaintext", 1000)),
    ]
    valid = []
    for name, binding, plaintext in cases:
        nonce = det("vault-nonce-" + name, 12)
        valid.append({
            "name": name, "key": key.hex(), "binding": binding, "nonce": nonce.hex(),
            "plaintext": plaintext.hex(), "sealed": seal(key, binding, nonce, plaintext).hex(),
        })
    base = bytes.fromhex(valid[1]["sealed"])
    binding = valid[1]["binding"]

    def flipped(i):
        b = bytearray(base)
        b[i] ^= 0x01
        return bytes(b)

    invalid = [
        {"name": "wrong-binding", "key": key.hex(), "binding": "messages/43/body", "sealed": base.hex(),
         "error": "cannotDecrypt"},
        {"name": "binding-without-separator", "key": key.hex(), "binding": binding + "x", "sealed": base.hex(),
         "error": "cannotDecrypt"},
        {"name": "wrong-key", "key": other_key.hex(), "binding": binding, "sealed": base.hex(),
         "error": "cannotDecrypt"},
        {"name": "flipped-nonce", "key": key.hex(), "binding": binding, "sealed": flipped(1).hex(),
         "error": "cannotDecrypt"},
        {"name": "flipped-ciphertext", "key": key.hex(), "binding": binding, "sealed": flipped(14).hex(),
         "error": "cannotDecrypt"},
        {"name": "flipped-tag", "key": key.hex(), "binding": binding, "sealed": flipped(len(base) - 1).hex(),
         "error": "cannotDecrypt"},
        {"name": "dropped-last-byte", "key": key.hex(), "binding": binding, "sealed": base[:-1].hex(),
         "error": "cannotDecrypt"},
        {"name": "truncated-below-overhead", "key": key.hex(), "binding": binding, "sealed": base[:28].hex(),
         "error": "corrupt"},
        {"name": "empty", "key": key.hex(), "binding": binding, "sealed": "", "error": "corrupt"},
        {"name": "version-2", "key": key.hex(), "binding": binding, "sealed": (b"\x02" + base[1:]).hex(),
         "error": "unsupportedVersion", "version": 2},
        {"name": "version-0", "key": key.hex(), "binding": binding, "sealed": (b"\x00" + base[1:]).hex(),
         "error": "unsupportedVersion", "version": 0},
    ]
    # Two values sealed under bindings A and B, each opened under the other's binding.
    a = seal(key, "rows/1", det("swap-a", 12), b"first row")
    b = seal(key, "rows/2", det("swap-b", 12), b"second row")
    invalid.append({"name": "swapped-a", "key": key.hex(), "binding": "rows/2", "sealed": a.hex(),
                    "error": "cannotDecrypt"})
    invalid.append({"name": "swapped-b", "key": key.hex(), "binding": "rows/1", "sealed": b.hex(),
                    "error": "cannotDecrypt"})

    subkeys = []
    for purpose in ["search-index", "", "avatars", "ünïcode"]:
        subkeys.append({"key": key.hex(), "purpose": purpose,
                        "subkey": hkdf(key, SUBKEY_PREFIX + purpose.encode("utf-8"), 32).hex()})
    return {"valid": valid, "invalid": invalid, "subkeys": subkeys}


# ---------------------------------------------------------------- MainKey file

def key_check(key):
    return hkdf(key, CHECK_INFO, 16)


def file_bytes(mode, attempts, check, body):
    out = MAGIC + bytes([VERSION, mode, attempts]) + check + struct.pack(">H", len(body)) + body
    return out + hashlib.sha256(out).digest()


def rechecksum(data):
    body = data[:-32]
    return body + hashlib.sha256(body).digest()


def pin_kek(pin, salt):
    normalized = unicodedata.normalize("NFC", pin).encode("utf-8")
    return Scrypt(salt=salt, length=32, n=32768, r=8, p=1).derive(normalized)


def pin_file(key, pin, seed, attempts=0):
    stream = det(seed, 28)
    salt, nonce = stream[:16], stream[16:28]
    ad = MAGIC + bytes([VERSION, MODE_PIN])
    wrapped = AESGCM(pin_kek(pin, salt)).encrypt(nonce, key, ad)
    return file_bytes(MODE_PIN, attempts, key_check(key), salt + nonce + wrapped), salt, nonce


def mainkey_vectors():
    key = det("vault-mainkey", 32)
    valid = []

    none = file_bytes(MODE_NONE, 0, key_check(key), key)
    valid.append({"name": "none", "mode": "none", "key": key.hex(), "file": none.hex(), "failedAttempts": 0})

    pins = [("pin", "1234", "vault-pin-seed", 0),
            ("pin-nfc", "cafe\u0301 42", "vault-pin-nfc-seed", 0),
            ("pin-3-failed", "2468", "vault-pin-3-seed", 3)]
    for name, pin, seed, attempts in pins:
        data, salt, nonce = pin_file(key, pin, seed, attempts)
        valid.append({"name": name, "mode": "pin", "key": key.hex(), "pin": pin, "seed": seed,
                      "salt": salt.hex(), "nonce": nonce.hex(), "failedAttempts": attempts, "file": data.hex()})

    protector_kek = det("vault-test-protector-kek", 32)
    protector_nonce = det("vault-test-protector-nonce", 12)
    blob = protector_nonce + AESGCM(protector_kek).encrypt(protector_nonce, key, TEST_PROTECTOR_AD)
    name = "test-software"
    hardware = file_bytes(MODE_HARDWARE, 0, key_check(key), bytes([len(name)]) + name.encode() + blob)
    valid.append({"name": "hardware", "mode": "hardware", "key": key.hex(), "protectorName": name,
                  "protectorKEK": protector_kek.hex(), "file": hardware.hex(), "failedAttempts": 0})

    pin = bytes.fromhex(valid[1]["file"])

    def flip(data, i, fix=False):
        b = bytearray(data)
        b[i] ^= 0x01
        return rechecksum(bytes(b)) if fix else bytes(b)

    def setting(data, i, value, fix=True):
        b = bytearray(data)
        b[i] = value
        return rechecksum(bytes(b)) if fix else bytes(b)

    invalid = []

    def add(name, data, error, pin_text="1234", **extra):
        entry = {"name": name, "file": data.hex(), "pin": pin_text, "error": error}
        entry.update(extra)
        invalid.append(entry)

    add("empty", b"", "corrupt")
    add("magic-only", pin[:8], "corrupt")
    add("header-only", pin[:29], "corrupt")
    add("truncated-body", pin[:60], "corrupt")
    add("missing-last-byte", pin[:-1], "corrupt")
    add("appended-byte", pin + b"\x00", "corrupt")
    add("oversize", pin + bytes(8192), "corrupt")
    add("garbage", det("vault-garbage", 137), "corrupt")
    add("bad-magic", setting(pin, 0, ord("X")), "corrupt")
    add("flipped-checksum", flip(pin, len(pin) - 1), "corrupt")
    add("flipped-checksum-first", flip(pin, len(pin) - 32), "corrupt")
    add("flipped-salt", flip(pin, 29), "corrupt")
    add("flipped-wrapped-key", flip(pin, 29 + 16 + 12 + 3), "corrupt")
    add("flipped-tag", flip(pin, 29 + 75), "corrupt")
    add("flipped-key-check", flip(pin, 11), "corrupt")
    add("flipped-counter", flip(pin, 10), "corrupt")
    add("flipped-mode", flip(pin, 9), "corrupt")
    add("body-length-too-long", setting(pin, 28, 77), "corrupt")
    add("body-length-too-short", setting(pin, 28, 75), "corrupt")
    add("unknown-mode", setting(pin, 9, 3), "corrupt")
    add("counter-above-limit", setting(pin, 10, 11), "corrupt")
    add("none-mode-with-counter", setting(none, 10, 1), "corrupt", pin_text=None)
    add("none-mode-key-check-mismatch", flip(none, 11, fix=True), "corrupt", pin_text=None)
    add("none-mode-short-key", rechecksum(none[:27] + b"\x00\x1f" + none[29:29 + 31] + bytes(32)), "corrupt",
        pin_text=None)
    add("version-2", setting(pin, 8, 2, fix=False), "unsupportedVersion", version=2)
    add("version-0", setting(pin, 8, 0), "unsupportedVersion", version=0)
    # The checksum holds but the wrap does not open: indistinguishable from, and reported as, a wrong PIN.
    add("wrong-pin", pin, "wrongPIN", pin_text="4321", attemptsLeft=9)
    add("wrong-pin-trailing-space", pin, "wrongPIN", pin_text="1234 ", attemptsLeft=9)
    add("rechecksummed-flipped-wrapped-key", flip(pin, 29 + 16 + 12 + 3, fix=True), "wrongPIN", attemptsLeft=9)
    add("rechecksummed-flipped-salt", flip(pin, 29, fix=True), "wrongPIN", attemptsLeft=9)
    add("rechecksummed-flipped-nonce", flip(pin, 29 + 16, fix=True), "wrongPIN", attemptsLeft=9)
    add("wrong-pin-after-3", bytes.fromhex(valid[3]["file"]), "wrongPIN", pin_text="1357", attemptsLeft=6)
    add("no-pin", pin, "pinRequired", pin_text=None)
    add("short-pin", pin, "weakPIN", pin_text="123")
    return {"valid": valid, "invalid": invalid}


def write(name, value):
    with open(os.path.join(OUT, name), "w") as f:
        json.dump(value, f, indent=1, ensure_ascii=False)
        f.write("\n")


if __name__ == "__main__":
    os.makedirs(OUT, exist_ok=True)
    write("vault-sealed.json", sealed_vectors())
    write("mainkey-file.json", mainkey_vectors())
