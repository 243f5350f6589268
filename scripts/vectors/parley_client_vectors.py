#!/usr/bin/env python3
"""Known-answer vectors for the client envelope and content (docs/CLIENT.md §2–3).

Written from the document alone, independently of the Swift code, so the Swift decoder is checked
against a second encoder. Output: Tests/ParleyClientTests/Vectors/client-envelope.json
"""
import json, os, struct, random

rng = random.Random(20261122)

def rand(n):
    return bytes(rng.getrandbits(8) for _ in range(n))

def pairwise(body): return b"\x01\x01" + body
def group(dist, msg): return b"\x01\x02" + struct.pack(">I", len(dist)) + dist + msg
def selfcopy(sealed): return b"\x01\x03" + sealed

def content(**fields):
    return json.dumps(fields, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()

valid = []
for body in (rand(1), rand(40), rand(300)):
    valid.append({"name": f"pairwise {len(body)}", "hex": pairwise(body).hex(), "kind": "pairwise", "body": body.hex()})
for dist, msg in ((b"", rand(90)), (rand(150), rand(120)), (rand(1), rand(1))):
    valid.append({"name": f"group dist {len(dist)} msg {len(msg)}", "hex": group(dist, msg).hex(), "kind": "group",
                  "distribution": dist.hex() or None, "message": msg.hex()})
sealed = rand(60)
valid.append({"name": "self copy", "hex": selfcopy(sealed).hex(), "kind": "self", "body": sealed.hex()})

invalid = [
    {"name": "empty", "hex": ""},
    {"name": "version only", "hex": "01"},
    {"name": "kind without body", "hex": "0101"},
    {"name": "version 2", "hex": "0201" + rand(10).hex()},
    {"name": "unknown kind 4", "hex": "0104" + rand(10).hex()},
    {"name": "group shorter than its length field", "hex": "0102000001"},
    {"name": "group length past the end", "hex": "010200000010" + rand(8).hex()},
    {"name": "group without a message after the distribution", "hex": "010200000004" + rand(4).hex()},
    {"name": "group length 0xFFFFFFFF", "hex": "0102ffffffff" + rand(8).hex()},
]

contents_valid = [
    {"name": "text", "json": content(v=1, id="00" * 16, type="text", text="hello")},
    {"name": "reply", "json": content(v=1, id="ab" * 16, type="text", text="yes", reply_to=9040)},
    {"name": "forward", "json": content(v=1, id="cd" * 16, type="text", text="fwd", forward={"senderID": 7, "timestamp": 1800000000123})},
    {"name": "title", "json": content(v=1, id="ef" * 16, type="group_title", text="Climbing trip ⛰")},
]
contents_invalid = [
    {"name": "version 2", "json": content(v=2, id="00" * 16, type="text", text="x")},
    {"name": "no id", "json": content(v=1, type="text", text="x")},
    {"name": "empty id", "json": content(v=1, id="", type="text", text="x")},
    {"name": "id over 64 bytes", "json": content(v=1, id="a" * 65, type="text", text="x")},
    {"name": "not json", "json": b"\x00\x01garbage"},
    {"name": "json array", "json": b"[1,2,3]"},
    {"name": "truncated", "json": content(v=1, id="00" * 16, type="text", text="hello")[:-3]},
]
for c in contents_valid + contents_invalid:
    c["json"] = c["json"].hex()

out = {"source": "scripts/vectors/parley_client_vectors.py", "envelopes": {"valid": valid, "invalid": invalid},
       "contents": {"valid": contents_valid, "invalid": contents_invalid}}
path = os.path.join(os.path.dirname(__file__), "../../Tests/ParleyClientTests/Vectors/client-envelope.json")
with open(path, "w") as f:
    json.dump(out, f, indent=1, ensure_ascii=False)
    f.write("\n")
print("wrote", os.path.normpath(path))
