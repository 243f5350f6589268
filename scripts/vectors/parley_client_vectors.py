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
def selfcopy(sealed): return b"\x01\x03" + sealed   # retired: kind 3 is refused now
def retry(body): return b"\x01\x04" + body

def content(**fields):
    return json.dumps(fields, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()

valid = []
for body in (rand(1), rand(40), rand(300)):
    valid.append({"name": f"pairwise {len(body)}", "hex": pairwise(body).hex(), "kind": "pairwise", "body": body.hex()})
for dist, msg in ((b"", rand(90)), (rand(150), rand(120)), (rand(1), rand(1))):
    valid.append({"name": f"group dist {len(dist)} msg {len(msg)}", "hex": group(dist, msg).hex(), "kind": "group",
                  "distribution": dist.hex() or None, "message": msg.hex()})
sealed = rand(60)
retired_self_copy = {"name": "retired kind 3 (the self copy of protocol 1's first clients)", "hex": selfcopy(sealed).hex()}

invalid = [
    {"name": "empty", "hex": ""},
    {"name": "version only", "hex": "01"},
    {"name": "kind without body", "hex": "0101"},
    {"name": "version 2", "hex": "0201" + rand(10).hex()},
    {"name": "unknown kind 5", "hex": "0105" + rand(10).hex()},
    {"name": "group shorter than its length field", "hex": "0102000001"},
    {"name": "group length past the end", "hex": "010200000010" + rand(8).hex()},
    {"name": "group without a message after the distribution", "hex": "010200000004" + rand(4).hex()},
    {"name": "group length 0xFFFFFFFF", "hex": "0102ffffffff" + rand(8).hex()},
    retired_self_copy,
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
# Files (CLIENT.md §3, key `file`): binary fields are standard base64 with padding.
import base64
def b64(b): return base64.b64encode(b).decode()
def file_object(**over):
    f = {"id": 3, "key": b64(rand(32)), "sha256": b64(rand(32)), "size": 60000, "name": "report.pdf", "mime": "application/pdf"}
    f.update(over)
    return {k: v for k, v in f.items() if v is not None}
contents_valid += [
    {"name": "file", "json": content(v=1, id="12" * 16, type="file", file=file_object())},
    {"name": "image with caption and thumbnail", "json": content(v=1, id="34" * 16, type="file", text="the summit ⛰",
        file=file_object(name="summit.jpg", mime="image/jpeg", size=2400000, thumbnail=b64(rand(300)), width=4000, height=3000))},
    {"name": "empty file with a slash in its type", "json": content(v=1, id="56" * 16, type="file",
        file=file_object(id=0, size=0, name="empty", mime="application/vnd.openxmlformats-officedocument.wordprocessingml.document"))},
]
contents_invalid += [
    {"name": "file type without file", "json": content(v=1, id="00" * 16, type="file", text="x")},
    {"name": "file on a text message", "json": content(v=1, id="00" * 16, type="text", text="x", file=file_object())},
    {"name": "file key of 31 bytes", "json": content(v=1, id="00" * 16, type="file", file=file_object(key=b64(rand(31))))},
    {"name": "file digest of 33 bytes", "json": content(v=1, id="00" * 16, type="file", file=file_object(sha256=b64(rand(33))))},
    {"name": "file key not base64", "json": content(v=1, id="00" * 16, type="file", file=file_object(key="not base64!"))},
    {"name": "file without id", "json": content(v=1, id="00" * 16, type="file", file=file_object(id=None))},
    {"name": "file negative size", "json": content(v=1, id="00" * 16, type="file", file=file_object(size=-1))},
    {"name": "file empty name", "json": content(v=1, id="00" * 16, type="file", file=file_object(name=""))},
    {"name": "file name with a control character", "json": content(v=1, id="00" * 16, type="file", file=file_object(name="a\nb"))},
    {"name": "file name over 255 bytes", "json": content(v=1, id="00" * 16, type="file", file=file_object(name="é" * 128))},
    {"name": "file type in capitals", "json": content(v=1, id="00" * 16, type="file", file=file_object(mime="Image/JPEG"))},
    {"name": "file type without a slash", "json": content(v=1, id="00" * 16, type="file", file=file_object(mime="imagejpeg"))},
    {"name": "file empty thumbnail", "json": content(v=1, id="00" * 16, type="file", file=file_object(thumbnail=""))},
    {"name": "file thumbnail over 48 KiB", "json": content(v=1, id="00" * 16, type="file", file=file_object(thumbnail=b64(bytes(49153))))},
    {"name": "file width 0", "json": content(v=1, id="00" * 16, type="file", file=file_object(width=0, height=10))},
]

# Pictures (CLIENT.md §3): `avatar` / `group_avatar` carry the key of the blob in a `file` object.
contents_valid += [
    {"name": "avatar", "json": content(v=1, id="78" * 16, type="avatar",
        file=file_object(id=0, name="avatar.jpg", mime="image/jpeg", size=9000, width=256, height=192))},
    {"name": "group avatar", "json": content(v=1, id="9a" * 16, type="group_avatar",
        file=file_object(id=0, name="avatar.jpg", mime="image/jpeg", size=7000, width=200, height=200))},
]
contents_invalid += [
    {"name": "avatar without file", "json": content(v=1, id="00" * 16, type="avatar")},
    {"name": "group avatar with a short key", "json": content(v=1, id="00" * 16, type="group_avatar",
        file=file_object(id=0, name="avatar.jpg", mime="image/jpeg", key=b64(rand(16))))},
]

# Retry requests (CLIENT.md §2.1): envelope kind 4, signed with the requester's Ed25519 identity key.
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives import serialization
RETRY_CONTEXT = b"Parley-retry-request-v1"
requester_seed = bytes(range(1, 33))
requester = Ed25519PrivateKey.from_private_bytes(requester_seed)
requester_public = requester.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
other = Ed25519PrivateKey.from_private_bytes(bytes(range(101, 133)))

def retry_body(account, device, to_account, to_device, conversation, created, ids, version=1, key=requester, count=None):
    unsigned = bytes([version]) + struct.pack(">QIQIQQ", account, device, to_account, to_device, conversation, created)
    unsigned += bytes([len(ids) if count is None else count]) + b"".join(struct.pack(">Q", i) for i in ids)
    return unsigned + key.sign(RETRY_CONTEXT + unsigned)

def retry_vector(name, ids, **over):
    fields = dict(account=7, device=2, to_account=8, to_device=1, conversation=12, created=1800000000123)
    fields.update(over)
    body = retry_body(fields["account"], fields["device"], fields["to_account"], fields["to_device"], fields["conversation"],
                      fields["created"], ids)
    return {"name": name, "hex": retry(body).hex(), "account_id": fields["account"], "device_id": fields["device"],
            "to_account_id": fields["to_account"], "to_device_id": fields["to_device"], "conversation_id": fields["conversation"],
            "created": fields["created"], "message_ids": ids}

retry_valid = [
    retry_vector("one message", [9041]),
    retry_vector("32 messages", list(range(100, 132))),
    retry_vector("largest ids", [2**63 - 1, 1], account=2**63 - 1, device=2**32 - 1, to_account=1, to_device=1,
                 conversation=2**63 - 1, created=2**53 - 1),
]
good = bytes.fromhex(retry_valid[0]["hex"])
retry_invalid = [
    {"name": "no message ids", "hex": retry(retry_body(7, 2, 8, 1, 12, 1800000000123, [])).hex()},
    {"name": "33 message ids", "hex": retry(retry_body(7, 2, 8, 1, 12, 1800000000123, list(range(1, 34)))).hex()},
    {"name": "an id twice", "hex": retry(retry_body(7, 2, 8, 1, 12, 1800000000123, [5, 5])).hex()},
    {"name": "request version 2", "hex": retry(retry_body(7, 2, 8, 1, 12, 1800000000123, [9041], version=2)).hex()},
    {"name": "count says 2, one id follows", "hex": retry(retry_body(7, 2, 8, 1, 12, 1800000000123, [9041], count=2)).hex()},
    {"name": "signed by another key", "hex": retry(retry_body(7, 2, 8, 1, 12, 1800000000123, [9041], key=other)).hex()},
    {"name": "a flipped bit in the conversation id", "hex": (good[:2 + 32] + bytes([good[34] ^ 1]) + good[35:]).hex()},
    {"name": "a flipped bit in the signature", "hex": (good[:-1] + bytes([good[-1] ^ 0x80])).hex()},
    {"name": "truncated signature", "hex": good[:-1].hex()},
    {"name": "a byte after the signature", "hex": (good + b"\x00").hex()},
    {"name": "header only", "hex": good[:2 + 42].hex()},
]

# Re-sends (CLIENT.md §3): `resend_of` names the server id of the message a re-send stands for.
contents_valid += [
    {"name": "a re-sent text", "json": content(v=1, id="bc" * 16, type="text", text="again", resend_of=9041)},
]
contents_invalid += [
    {"name": "resend_of zero", "json": content(v=1, id="00" * 16, type="text", text="x", resend_of=0)},
    {"name": "resend_of negative", "json": content(v=1, id="00" * 16, type="text", text="x", resend_of=-5)},
]

for c in contents_valid + contents_invalid:
    c["json"] = c["json"].hex()

out = {"source": "scripts/vectors/parley_client_vectors.py", "envelopes": {"valid": valid, "invalid": invalid},
       "contents": {"valid": contents_valid, "invalid": contents_invalid},
       "retry_requests": {"requester_identity_key": requester_public.hex(), "valid": retry_valid, "invalid": retry_invalid}}
path = os.path.join(os.path.dirname(__file__), "../../Tests/ParleyClientTests/Vectors/client-envelope.json")
with open(path, "w") as f:
    json.dump(out, f, indent=1, ensure_ascii=False)
    f.write("\n")
print("wrote", os.path.normpath(path))
