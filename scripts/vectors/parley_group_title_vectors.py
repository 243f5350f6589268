#!/usr/bin/env python3
"""Known-answer vectors for the title proof of a `group_title` content (docs/CLIENT.md §3 and §8.1).

Written from the document alone, independently of the Swift code, with Python's `cryptography` for Ed25519
(RFC 8032, deterministic). Output: Tests/ParleyClientTests/Vectors/group-title-proof.json
"""
import base64, json, os, struct
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives import serialization

CONTEXT = b"Parley-group-title-v1"
assert len(CONTEXT) == 21

def key(seed_byte):
    seed = bytes([seed_byte]) * 32
    private = Ed25519PrivateKey.from_private_bytes(seed)
    public = private.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    return seed, private, public

def signed_bytes(conversation, version, title):
    return CONTEXT + struct.pack(">QQ", conversation, version) + title.encode()

def content(title, proof, type="group_title", id="7a" * 16):
    fields = {"v": 1, "id": id, "type": type, "text": title}
    if proof is not None:
        fields["title_proof"] = proof
    return json.dumps(fields, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()

def b64(b):
    return base64.b64encode(b).decode()

creator_seed, creator, creator_public = key(0x11)
_, other, other_public = key(0x22)

valid = []
for name, conversation, version, title in [
    ("a plain title", 42, 1764374400000, "Lunch club"),
    ("non-ASCII and an emoji", 7, 1764374400001, "Café ☕ crew"),
    ("the largest version, a 256-byte title", 9007199254740991, 9007199254740991, "x" * 256),
    ("version 1, conversation 1", 1, 1, "a"),
]:
    signed = signed_bytes(conversation, version, title)
    signature = creator.sign(signed)
    valid.append({
        "name": name, "conversation_id": conversation, "version": version, "title": title,
        "signed": signed.hex(), "signature": signature.hex(),
        "json": content(title, {"version": version, "signature": b64(signature)}).hex(),
    })

# Content reads, the proof does not hold for this creator, conversation or title: the title is not taken.
base = valid[0]
good = bytes.fromhex(base["signature"])
flipped = bytearray(good); flipped[10] ^= 0x01
not_holding = [
    {"name": "signed by another key", "conversation_id": 42, "version": base["version"], "title": "Lunch club",
     "signature": other.sign(signed_bytes(42, base["version"], "Lunch club")).hex()},
    {"name": "another conversation", "conversation_id": 43, "version": base["version"], "title": "Lunch club",
     "signature": good.hex()},
    {"name": "another title", "conversation_id": 42, "version": base["version"], "title": "Lunch club!",
     "signature": good.hex()},
    {"name": "another version", "conversation_id": 42, "version": base["version"] + 1, "title": "Lunch club",
     "signature": good.hex()},
    {"name": "one bit of the signature flipped", "conversation_id": 42, "version": base["version"], "title": "Lunch club",
     "signature": bytes(flipped).hex()},
    {"name": "signed without the context", "conversation_id": 42, "version": base["version"], "title": "Lunch club",
     "signature": creator.sign(struct.pack(">QQ", 42, base["version"]) + b"Lunch club").hex()},
]

# Whole content refused ("cannot decrypt"): a proof must be shaped and only on a title.
sig = b64(good)
noncanonical = sig[:-3] + ("B" if sig[-3] != "B" else "C") + "=="
invalid_content = [
    {"name": "proof on a text message", "json": content("hi", {"version": 1, "signature": sig}, type="text").hex()},
    {"name": "proof without a signature", "json": content("t", {"version": 1}).hex()},
    {"name": "proof without a version", "json": content("t", {"signature": sig}).hex()},
    {"name": "version 0", "json": content("t", {"version": 0, "signature": sig}).hex()},
    {"name": "negative version", "json": content("t", {"version": -5, "signature": sig}).hex()},
    {"name": "version 2^53", "json": content("t", {"version": 9007199254740992, "signature": sig}).hex()},
    {"name": "version is a string", "json": content("t", {"version": "1", "signature": sig}).hex()},
    {"name": "signature of 63 bytes", "json": content("t", {"version": 1, "signature": b64(good[:63])}).hex()},
    {"name": "signature of 65 bytes", "json": content("t", {"version": 1, "signature": b64(good + b"\0")}).hex()},
    {"name": "signature in base64url without padding", "json": content("t", {"version": 1, "signature": sig.replace("+", "-").replace("/", "_").rstrip("=")}).hex()},
    {"name": "signature with non-canonical padding bits", "json": content("t", {"version": 1, "signature": noncanonical}).hex()},
    {"name": "signature is a number", "json": content("t", {"version": 1, "signature": 12345}).hex()},
    {"name": "proof is a string", "json": content("t", "proof").hex()},
]

out = {
    "source": "scripts/vectors/parley_group_title_vectors.py",
    "creator_seed": creator_seed.hex(), "creator_public": creator_public.hex(), "other_public": other_public.hex(),
    "valid": valid, "not_holding": not_holding, "invalid_content": invalid_content,
}
path = os.path.join(os.path.dirname(__file__), "../../Tests/ParleyClientTests/Vectors/group-title-proof.json")
with open(path, "w") as f:
    json.dump(out, f, indent=1, ensure_ascii=False)
    f.write("\n")
print("wrote", os.path.normpath(path))
