#!/usr/bin/env python3
"""Independent generator of contact-verification vectors (docs/FORMATS.md §4, §5 and §15).

Written from the format text with Python's standard library and `cryptography` (Ed25519 keys), not
from the Swift code: the verification QR text, and the fingerprints and safety numbers of Ed25519
identity keys with e-mail ids, which is exactly what `parley verify` shows.
Run: python3 scripts/vectors/verification_qr_vectors.py
It rewrites Tests/ParleyCryptoTests/Vectors/verification-qr.json. Tests never run it.
"""
import base64
import hashlib
import json
import os
import struct

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

OUT = os.path.join(os.path.dirname(__file__), "..", "..", "Tests", "ParleyCryptoTests", "Vectors", "verification-qr.json")
P = 2**255 - 19
PREFIX = "parley-verify:"


def det(label, n):
    return hashlib.sha256(label.encode()).digest()[:n]


def ed25519_public(seed):
    return Ed25519PrivateKey.from_private_bytes(seed).public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)


def montgomery_u(ed_public):
    """Birational map of RFC 7748 §4.1: u = (1 + y) / (1 - y) mod p."""
    y = int.from_bytes(ed_public, "little") & ((1 << 255) - 1)
    u = (1 + y) * pow(1 - y, P - 2, P) % P
    return u.to_bytes(32, "little")


def fingerprint(ed_public, account_id):
    key = b"\x05" + montgomery_u(ed_public)
    h = hashlib.sha512(b"\x00\x00" + key + account_id.encode() + key).digest()
    for _ in range(5199):
        h = hashlib.sha512(h + key).digest()
    return "".join("%05d" % (int.from_bytes(h[i * 5:i * 5 + 5], "big") % 100000) for i in range(6))


def payload(account_id, key):
    ident = account_id.encode()
    return bytes([1, len(ident)]) + ident + key


def qr_text(raw):
    return PREFIX + base64.urlsafe_b64encode(raw).decode().rstrip("=")


def main():
    people = [("ann@example.org", "ann"), ("bob@example.org", "bob"), ("zoë@例え.jp", "zoe"),
              ("a" * 255, "long")]
    valid = []
    for email, label in people:
        key = ed25519_public(det("verification seed " + label, 32))
        raw = payload(email, key)
        valid.append({"account_id": email, "identity_key": key.hex(), "payload": raw.hex(),
                      "qr_text": qr_text(raw), "fingerprint": fingerprint(key, email)})
    pairs = []
    for a, b in [(0, 1), (1, 2)]:
        fa, fb = valid[a]["fingerprint"], valid[b]["fingerprint"]
        pairs.append({"first": a, "second": b, "safety_number": min(fa, fb) + max(fa, fb)})
    good = payload("ann@example.org", ed25519_public(det("verification seed ann", 32)))
    b64 = base64.urlsafe_b64encode(good).decode().rstrip("=")
    invalid = [
        {"why": "no prefix", "qr_text": b64},
        {"why": "another scheme", "qr_text": "https://example.org/" + b64},
        {"why": "prefix in capitals", "qr_text": PREFIX.upper() + b64},
        {"why": "empty body", "qr_text": PREFIX},
        {"why": "standard base64 alphabet", "qr_text": PREFIX + base64.b64encode(b"\xfb\xff" + good).decode().rstrip("=")},
        {"why": "padding", "qr_text": PREFIX + base64.urlsafe_b64encode(good).decode()},
        {"why": "whitespace", "qr_text": PREFIX + b64[:10] + " " + b64[10:]},
        {"why": "impossible length (4n+1 characters)", "qr_text": PREFIX + b64 + "AAA"},
        {"why": "non-zero unused bits in the last character", "qr_text": PREFIX + b64[:-1] + chr(ord(b64[-1]) + 1)},
        {"why": "version 2 payload", "qr_text": qr_text(b"\x02" + good[1:])},
        {"why": "payload one byte short", "qr_text": qr_text(good[:-1])},
        {"why": "payload one byte long", "qr_text": qr_text(good + b"\x00")},
        {"why": "empty account id", "qr_text": qr_text(b"\x01\x00" + good[-32:])},
        {"why": "account id not UTF-8", "qr_text": qr_text(b"\x01\x02\xc3\x28" + good[-32:])},
    ]
    assert len(b64 + "AAA") % 4 == 1 and base64.urlsafe_b64encode(good).decode().endswith("=")
    with open(OUT, "w") as out:
        json.dump({"prefix": PREFIX, "valid": valid, "safety_numbers": pairs, "invalid": invalid}, out,
                  indent=2, ensure_ascii=False)
        out.write("\n")


if __name__ == "__main__":
    main()
