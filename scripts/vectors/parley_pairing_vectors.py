#!/usr/bin/env python3
"""Independent generator of the device-pairing known-answer vectors.

Written from docs/FORMATS.md §14 "Device pairing" with Python's `cryptography` package and hashlib,
not from the Swift code, so the committed vectors check the Swift implementation against a second
implementation of the document.
Run: python3 scripts/vectors/parley_pairing_vectors.py
It rewrites Tests/ParleyCryptoTests/Vectors/pairing.json. Tests never run it.
"""
import base64
import hashlib
import json
import os
import struct

from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

OUT = os.path.join(os.path.dirname(__file__), "..", "..", "Tests", "ParleyCryptoTests", "Vectors", "pairing.json")
ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
CONTEXT = b"Parley-pair-v1"


def det(label, n):
    out, counter = b"", 0
    while len(out) < n:
        out += hashlib.sha256(label.encode() + struct.pack(">Q", counter)).digest()
        counter += 1
    return out[:n]


def code_text(pair_id, secret):
    raw = struct.pack(">I", pair_id) + secret
    check = hashlib.sha256(b"Parley-pair-code-v1" + raw).digest()[0] >> 4
    value = (int.from_bytes(raw, "big") << 4) | check
    chars = [ALPHABET[(value >> (5 * (19 - i))) & 31] for i in range(20)]
    return "-".join("".join(chars[i:i + 4]) for i in range(0, 20, 4))


def parse_code(text):
    """None unless `text` reads as a valid code; (pair_id, secret) otherwise."""
    if text.lower().startswith("parley-pair:"):
        text = text[len("parley-pair:"):]
    cleaned = text.upper().replace("-", "").replace(" ", "").replace("O", "0").replace("I", "1").replace("L", "1")
    if len(cleaned) != 20 or any(c not in ALPHABET for c in cleaned):
        return None
    value = 0
    for c in cleaned:
        value = (value << 5) | ALPHABET.index(c)
    raw = (value >> 4).to_bytes(12, "big")
    if hashlib.sha256(b"Parley-pair-code-v1" + raw).digest()[0] >> 4 != value & 15:
        return None
    return int.from_bytes(raw[:4], "big"), raw[4:]


def raw_public(private):
    return private.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)


def raw_private(private):
    return private.private_bytes(serialization.Encoding.Raw, serialization.PrivateFormat.Raw, serialization.NoEncryption())


def channel_key(pair_id, secret, own_private, peer_public, e_new, e_old):
    pid = struct.pack(">I", pair_id)
    stretched = hashlib.scrypt(secret, salt=CONTEXT + pid, n=1 << 15, r=8, p=1, maxmem=64 * 1024 * 1024, dklen=32)
    from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PublicKey
    shared = own_private.exchange(X25519PublicKey.from_public_bytes(peer_public))
    key = HKDF(algorithm=hashes.SHA256(), length=32, salt=stretched, info=CONTEXT + pid + e_new + e_old).derive(shared)
    return stretched, shared, key


def seal(key, nonce, plaintext, ad):
    return b"\x01" + nonce + AESGCM(key).encrypt(nonce, plaintext, ad)


def keys_ad(pair_id):
    return b"Parley-pair-keys-v1" + struct.pack(">I", pair_id)


def chunk_ad(pair_id, index, last):
    return b"Parley-pair-history-v1" + struct.pack(">I", pair_id) + struct.pack(">I", index) + (b"\x01" if last else b"\x00")


def main():
    codes = []
    for n in range(4):
        pair_id = int.from_bytes(det(f"pair-id-{n}", 4), "big")
        secret = det(f"pair-secret-{n}", 8)
        codes.append({"pairID": pair_id, "secret": secret.hex(), "text": code_text(pair_id, secret)})
    codes.append({"pairID": 0, "secret": "00" * 8, "text": code_text(0, bytes(8))})
    codes.append({"pairID": 0xFFFFFFFF, "secret": "ff" * 8, "text": code_text(0xFFFFFFFF, b"\xff" * 8)})

    sample = next(c["text"] for c in codes if "0" in c["text"] and "1" in c["text"])
    # Spellings that read as the same code: lower case, no dashes, spaces, O for 0, I/L for 1.
    lenient = [sample.lower(), sample.replace("-", ""), sample.replace("-", " "),
               sample.replace("0", "O"), sample.replace("1", "l"), sample.replace("1", "I"),
               "parley-pair:" + sample, "PARLEY-PAIR:" + sample.lower()]
    flipped = list(sample.replace("-", ""))
    step = 1
    while True:  # a one-character typo the 4-bit check catches (it misses 1 in 16)
        candidate = flipped[:5] + [ALPHABET[(ALPHABET.index(flipped[5]) + step) % 32]] + flipped[6:]
        if parse_code("".join(candidate)) is None:
            flipped = candidate
            break
        step += 1
    invalid = ["", sample[:-1], sample + "0", "".join(flipped), sample.replace(sample[0], "U", 1),
               sample.replace(sample[2], "*", 1), "ABCD-EFGH-JKMN-PQRS-TVWX-YZ01", "parley-pair:", "parley-verify:" + sample, "parley-pair:parley-pair:" + sample]

    assert all(parse_code(t) == parse_code(sample) for t in lenient)
    assert all(parse_code(c["text"]) == (c["pairID"], bytes.fromhex(c["secret"])) for c in codes)
    assert all(parse_code(t) is None for t in invalid)

    pair_id = codes[0]["pairID"]
    secret = bytes.fromhex(codes[0]["secret"])
    new_private = X25519PrivateKey.from_private_bytes(det("pair-new-ephemeral", 32))
    old_private = X25519PrivateKey.from_private_bytes(det("pair-old-ephemeral", 32))
    e_new, e_old = raw_public(new_private), raw_public(old_private)
    stretched, shared, key = channel_key(pair_id, secret, old_private, e_new, e_new, e_old)
    _, shared2, key2 = channel_key(pair_id, secret, new_private, e_old, e_new, e_old)
    assert shared == shared2 and key == key2

    payload = json.dumps({"account_id": 7, "auth_seed": base64.b64encode(det("auth", 32)).decode(),
                          "display_name": "Ann", "email": "ann@example.org",
                          "identity_seed": base64.b64encode(det("identity", 32)).decode(), "v": 1},
                         sort_keys=True, separators=(",", ":")).encode()
    keys_nonce = det("keys-nonce", 12)
    keys_box = seal(key, keys_nonce, payload, keys_ad(pair_id))
    chunks = []
    parts = [b'{"v":1,"conversations":[],', b'"contacts":[],"identities":[],"messages":[]}']
    for index, part in enumerate(parts):
        nonce = det(f"chunk-nonce-{index}", 12)
        last = index == len(parts) - 1
        chunks.append({"index": index, "last": last, "nonce": nonce.hex(), "plaintext": part.hex(),
                       "sealed": seal(key, nonce, part, chunk_ad(pair_id, index, last)).hex()})

    tampered = bytearray(keys_box)
    tampered[20] ^= 1
    wrong_secret = bytes.fromhex(codes[1]["secret"])
    _, _, wrong_key = channel_key(pair_id, wrong_secret, old_private, e_new, e_new, e_old)
    invalid_boxes = [
        {"why": "empty", "sealed": "", "error": "corrupt"},
        {"why": "shorter than 29 bytes", "sealed": keys_box[:28].hex(), "error": "corrupt"},
        {"why": "version 02", "sealed": ("02" + keys_box[1:].hex()), "error": "unsupportedVersion"},
        {"why": "a flipped ciphertext bit", "sealed": bytes(tampered).hex(), "error": "cannotDecrypt"},
        {"why": "sealed with another secret", "sealed": seal(wrong_key, keys_nonce, payload, keys_ad(pair_id)).hex(),
         "error": "cannotDecrypt"},
        {"why": "a history chunk offered as the keys box", "sealed": chunks[0]["sealed"], "error": "cannotDecrypt"},
    ]
    bad_payloads = [
        json.dumps({"v": 2, "account_id": 7}).encode().hex(),
        b"not json".hex(),
        json.dumps({"account_id": 7, "auth_seed": "AAAA", "display_name": "Ann", "email": "ann@example.org",
                    "identity_seed": base64.b64encode(det("identity", 32)).decode(), "v": 1}).encode().hex(),
    ]
    doc = {
        "codes": codes, "lenientBase": sample, "lenientSpellings": lenient, "invalidCodes": invalid,
        "channel": {"pairID": pair_id, "secret": secret.hex(), "newPrivate": raw_private(new_private).hex(),
                    "oldPrivate": raw_private(old_private).hex(), "newPublic": e_new.hex(), "oldPublic": e_old.hex(),
                    "stretched": stretched.hex(), "shared": shared.hex(), "key": key.hex()},
        "keysBox": {"nonce": keys_nonce.hex(), "plaintext": payload.hex(), "sealed": keys_box.hex()},
        "chunks": chunks, "invalidBoxes": invalid_boxes, "invalidPayloads": bad_payloads,
    }
    with open(OUT, "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")


main()
