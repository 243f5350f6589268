#!/usr/bin/env python3
"""Known-answer vectors for the cluster event payload (docs/SCALING.md §2), written independently of
the Swift code from the document: compact JSON, keys sorted, UTF-8 unescaped, integers as integers.

Writes Tests/ParleyWireTests/Vectors/cluster-batch.json.
"""
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "..", "Tests", "ParleyWireTests", "Vectors", "cluster-batch.json")


def dumps(value):
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def event(account, device=None, except_device=None, notify=None):
    """One event: the wire form and the structured form the test compares with."""
    wire = {"a": account}
    if device is not None:
        wire["d"] = device
    if except_device is not None:
        wire["x"] = except_device
    if notify is None:
        wire["k"] = "c"
    else:
        wire["k"] = "n"
        wire["e"] = notify[0]
        wire["f"] = notify[1]
    structured = {"account": account, "device": device, "except": except_device,
                  "event": None if notify is None else notify[0],
                  "fields": None if notify is None else notify[1]}
    return wire, structured


def batch(node, events):
    return dumps({"v": 1, "n": node, "e": [wire for wire, _ in events]}), [s for _, s in events]


valid = []
for description, node, events in [
    ("one new_message for all devices but the sender's", "node-a", [
        event(42, except_device=1, notify=("new_message", {
            "conversation_id": 7, "message_id": 1001, "timestamp": 1800000000123, "sender_id": 42}))]),
    ("a disconnect of one device, then a presence event", "7f3c0d2e-1b6a-4c2d-9e8f-0a1b2c3d4e5f", [
        event(9, device=3, notify=None),
        event(5, notify=("user_online", {"account_id": 9}))]),
    ("fields of every JSON kind, non-ASCII text", "n", [
        event(1, device=2, notify=("group_renamed", {
            "flag": True, "none": None, "list": [1, "two", False], "nested": {"z": 0, "a": -3},
            "title": "Café ✓", "ratio": 0.5}))]),
]:
    payload, structured = batch(node, events)
    valid.append({"description": description, "payload": payload, "node": node, "events": structured})

# A node's word about itself (§2.1): no events, "p" with the notice.
peer = [
    {"description": "a hello", "payload": dumps({"v": 1, "n": "node-b", "e": [], "p": {"k": "hello"}}),
     "node": "node-b", "kind": "hello", "target": None},
    {"description": "an answer to node-b's hello", "payload": dumps({"v": 1, "n": "node-a", "e": [], "p": {"k": "heard", "t": "node-b"}}),
     "node": "node-a", "kind": "heard", "target": "node-b"},
]

invalid = [
    {"description": "not JSON", "payload": "garbage"},
    {"description": "truncated", "payload": valid[0]["payload"][:-5]},
    {"description": "unknown version", "payload": dumps({"v": 2, "n": "x", "e": []})},
    {"description": "version missing", "payload": dumps({"n": "x", "e": []})},
    {"description": "node missing", "payload": dumps({"v": 1, "e": []})},
    {"description": "events not an array", "payload": dumps({"v": 1, "n": "x", "e": {}})},
    {"description": "unknown event kind", "payload": dumps({"v": 1, "n": "x", "e": [{"a": 1, "k": "z"}]})},
    {"description": "notification without a name", "payload": dumps({"v": 1, "n": "x", "e": [{"a": 1, "k": "n", "f": {}}]})},
    {"description": "account not an integer", "payload": dumps({"v": 1, "n": "x", "e": [{"a": "1", "k": "c"}]})},
    {"description": "device out of range", "payload": dumps({"v": 1, "n": "x", "e": [{"a": 1, "d": 4294967296, "k": "c"}]})},
    {"description": "peer notice of an unknown kind", "payload": dumps({"v": 1, "n": "x", "e": [], "p": {"k": "bye"}})},
    {"description": "an answer naming no node", "payload": dumps({"v": 1, "n": "x", "e": [], "p": {"k": "heard"}})},
    {"description": "a hello naming a node", "payload": dumps({"v": 1, "n": "x", "e": [], "p": {"k": "hello", "t": "y"}})},
    {"description": "peer notice not an object", "payload": dumps({"v": 1, "n": "x", "e": [], "p": "hello"})},
    {"description": "answer's node not a string", "payload": dumps({"v": 1, "n": "x", "e": [], "p": {"k": "heard", "t": 7}})},
    {"description": "8000 bytes or more (PostgreSQL would never deliver it)",
     "payload": dumps({"v": 1, "n": "x" * 8000, "e": []})},
]

with open(OUT, "w", encoding="utf-8") as f:
    json.dump({"valid": valid, "peer": peer, "invalid": invalid}, f, indent=2, ensure_ascii=False)
    f.write("\n")
print(f"wrote {len(valid)} valid, {len(peer)} peer and {len(invalid)} invalid vectors to {os.path.relpath(OUT)}")
