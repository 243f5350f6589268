#!/usr/bin/env python3
"""Known-answer vectors for the `location_key` content (docs/CLIENT.md §3 and §11).

Written from the document alone, independently of the Swift code: compact JSON with sorted keys, the
32-byte key as standard base64 with padding. Output: Tests/ParleyClientTests/Vectors/location-key.json
"""
import base64, json, os, random

rng = random.Random(20261122_8)

def rand(n):
    return bytes(rng.getrandbits(8) for _ in range(n))

def b64(b):
    return base64.b64encode(b).decode()

def content(**fields):
    return json.dumps(fields, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()

def message(location, type="location_key", id="5e" * 16):
    fields = {"v": 1, "id": id, "type": type}
    if location is not None:
        fields["location"] = location
    return content(**fields)

valid = []
for epoch in (1, 2, 9007199254740991):
    key = rand(32)
    valid.append({"name": f"epoch {epoch}", "json": message({"v": 1, "key": b64(key), "epoch": epoch}).hex(),
                  "key": key.hex(), "epoch": epoch})

# Whole content refused ("cannot decrypt"): the object and the type must come together, and be shaped.
invalid_content = [
    {"name": "type without a location object", "json": message(None).hex()},
    {"name": "location object on a text message", "json": message({"v": 1, "key": b64(rand(32)), "epoch": 1}, type="text").hex()},
    {"name": "location is a number", "json": message(7).hex()},
    {"name": "epoch is a string", "json": message({"v": 1, "key": b64(rand(32)), "epoch": "1"}).hex()},
    {"name": "key is a number", "json": message({"v": 1, "key": 12345, "epoch": 1}).hex()},
]

# Content reads, but the key is refused: nothing is stored and the message says why.
good = rand(32)
# 32 bytes leave 2 unused bits in the last character; "B" (000001) sets one, so this text is not canonical.
noncanonical = b64(good)[:-2] + "B="
invalid_key = [
    {"name": "version 2", "location": {"v": 2, "key": b64(good), "epoch": 1}, "why": "unsupported version 2"},
    {"name": "no version", "location": {"key": b64(good), "epoch": 1}, "why": "unsupported version none"},
    {"name": "epoch 0", "location": {"v": 1, "key": b64(good), "epoch": 0}, "why": "epoch"},
    {"name": "epoch 2^53", "location": {"v": 1, "key": b64(good), "epoch": 9007199254740992}, "why": "epoch"},
    {"name": "negative epoch", "location": {"v": 1, "key": b64(good), "epoch": -1}, "why": "epoch"},
    {"name": "no epoch", "location": {"v": 1, "key": b64(good)}, "why": "epoch"},
    {"name": "no key", "location": {"v": 1, "epoch": 1}, "why": "not 44 characters"},
    {"name": "key of 16 bytes", "location": {"v": 1, "key": b64(rand(16)), "epoch": 1}, "why": "not 44 characters"},
    {"name": "key of 31 bytes", "location": {"v": 1, "key": b64(rand(31)), "epoch": 1}, "why": "not 32 bytes"},
    {"name": "key of 33 bytes (44 characters, no padding)", "location": {"v": 1, "key": b64(rand(33)), "epoch": 1}, "why": "not 32 bytes"},
    {"name": "key of 34 bytes", "location": {"v": 1, "key": b64(rand(34)), "epoch": 1}, "why": "not 44 characters"},
    {"name": "key in base64url", "location": {"v": 1, "key": b64(good).replace("+", "-").replace("/", "_").rstrip("=") + "-", "epoch": 1},
     "why": "not 44 characters of standard base64"},
    {"name": "key with non-canonical padding bits", "location": {"v": 1, "key": noncanonical, "epoch": 1},
     "why": "not 44 characters of standard base64"},
    {"name": "key of 44 spaces", "location": {"v": 1, "key": " " * 44, "epoch": 1}, "why": "not 44 characters of standard base64"},
]
for vector in invalid_key:
    vector["json"] = message(vector.pop("location")).hex()

out = {"source": "scripts/vectors/parley_location_key_vectors.py", "valid": valid,
       "invalid_content": invalid_content, "invalid_key": invalid_key}
path = os.path.join(os.path.dirname(__file__), "../../Tests/ParleyClientTests/Vectors/location-key.json")
with open(path, "w") as f:
    json.dump(out, f, indent=1, ensure_ascii=False)
    f.write("\n")
print("wrote", os.path.normpath(path))
