#!/usr/bin/env python3
"""Independent generator of ParleyLocation known-answer vectors.

Written from issue 8 and docs/FORMATS.md §13 with Python's `cryptography` package, not from the
Swift code. JavaScript number text and encodeURIComponent are implemented here in Python and, when
`node` is installed, every value is checked against real JavaScript before anything is written.

Run: python3 scripts/vectors/parley_location_vectors.py
It rewrites the JSON files in Tests/ParleyLocationTests/Vectors/. Tests never run it.
"""
import base64
import hashlib
import json
import os
import shutil
import struct
import subprocess
from urllib.parse import quote

from cryptography.hazmat.primitives import padding
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

OUT = os.path.join(os.path.dirname(__file__), "..", "..", "Tests", "ParleyLocationTests", "Vectors")


def det(label, n):
    """Deterministic 'random' bytes so the files regenerate byte for byte."""
    return hashlib.sha256(b"parley location vectors: " + label.encode()).digest()[:n]


def b64(b):
    return base64.b64encode(b).decode()


# --- JavaScript Number.prototype.toString (ECMA-262 Number::toString, radix 10) -------------
def js_number(x):
    if x != x:
        return "NaN"
    if x == 0:
        return "0"
    if x in (float("inf"), float("-inf")):
        return "Infinity" if x > 0 else "-Infinity"
    sign = "-" if x < 0 else ""
    # repr() gives the shortest round-trip digits (David Gay / Python's own algorithm).
    r = repr(abs(x))
    mant, _, exp = r.partition("e")
    exp = int(exp) if exp else 0
    if "." in mant:
        ip, fp = mant.split(".")
    else:
        ip, fp = mant, ""
    digits = (ip + fp).lstrip("0")
    lead = len(ip + fp) - len((ip + fp).lstrip("0"))
    n = len(ip) + exp - lead
    digits = digits.rstrip("0")
    k = len(digits)
    if k <= n <= 21:
        return sign + digits + "0" * (n - k)
    if 0 < n <= 21:
        return sign + digits[:n] + "." + digits[n:]
    if -6 < n <= 0:
        return sign + "0." + "0" * (-n) + digits
    e = n - 1
    es = ("+" if e >= 0 else "-") + str(abs(e))
    if k == 1:
        return sign + digits + "e" + es
    return sign + digits[0] + "." + digits[1:] + "e" + es


def encode_uri_component(s):
    return quote(s, safe="-_.!~*'()")


def node_eval(expressions):
    """Evaluates JS expressions in node; None when node is missing."""
    if not shutil.which("node"):
        return None
    program = "const xs=[" + ",".join(expressions) + "];console.log(JSON.stringify(xs.map(String)));"
    return json.loads(subprocess.run(["node", "-e", program], check=True, capture_output=True, text=True).stdout)


# --- legacy: AES-CBC + PKCS#7, base64(ct) + base64(iv) ---------------------------------------
def cbc_encrypt(key, iv, plaintext):
    padder = padding.PKCS7(128).padder()
    data = padder.update(plaintext) + padder.finalize()
    enc = Cipher(algorithms.AES(key), modes.CBC(iv)).encryptor()
    return enc.update(data) + enc.finalize()


def cbc_raw(key, iv, data):
    enc = Cipher(algorithms.AES(key), modes.CBC(iv)).encryptor()
    return enc.update(data) + enc.finalize()


def legacy_vectors():
    valid = []
    key16 = bytes(range(16))
    iv = bytes(range(16, 32))
    # The known answer.
    stored = b64(cbc_encrypt(key16, iv, b"24.962535")) + b64(iv)
    assert stored == "gZa6zSEooB/lAAwRBzMAAA==EBESExQVFhcYGRobHB0eHw==", stored
    valid.append({"comment": "issue 8 known answer", "key": key16.hex(), "iv": iv.hex(), "text": "24.962535",
                  "number": 24.962535, "stored": stored})
    numbers = [60.1699, -33.868820, 0.000001, 1e-7, -179.99999999, 90, 0, 1234567.0, 12.3456789012345]
    for i, number in enumerate(numbers):
        for size in (16, 32):
            key = det(f"legacy key {size} {i}", size)
            ivi = det(f"legacy iv {size} {i}", 16)
            text = js_number(number)
            valid.append({"comment": f"AES-{size * 8} of {text}", "key": key.hex(), "iv": ivi.hex(), "text": text,
                          "number": number, "stored": b64(cbc_encrypt(key, ivi, text.encode())) + b64(ivi)})
    # A 16-character plaintext gets a whole block of padding.
    text = "-12.345678901234"
    valid.append({"comment": "full padding block", "key": key16.hex(), "iv": iv.hex(), "text": text,
                  "number": float(text), "stored": b64(cbc_encrypt(key16, iv, text.encode())) + b64(iv)})

    good = valid[0]["stored"]
    invalid = [
        {"comment": "empty", "key": key16.hex(), "stored": "", "error": "malformed"},
        {"comment": "only an IV", "key": key16.hex(), "stored": b64(iv), "error": "malformed"},
        {"comment": "bad base64 in ciphertext", "key": key16.hex(), "stored": "gZa6zSEooB/lAAwRBzMAA!==" + b64(iv), "error": "malformed"},
        {"comment": "bad base64 in IV", "key": key16.hex(), "stored": good[:-24] + "EBESExQVFhcYGRobHB0eH*==", "error": "malformed"},
        {"comment": "IV of 15 bytes", "key": key16.hex(), "stored": good[:-24] + b64(iv[:15]), "error": "malformed"},
        {"comment": "ciphertext of 15 bytes", "key": key16.hex(), "stored": b64(bytes(15)) + "AAAA" + b64(iv), "error": "malformed"},
        {"comment": "ciphertext of 17 bytes", "key": key16.hex(), "stored": b64(bytes(17)) + b64(iv), "error": "malformed"},
        {"comment": "truncated by one character", "key": key16.hex(), "stored": good[:-1], "error": "malformed"},
        {"comment": "whitespace inside", "key": key16.hex(), "stored": good[:10] + " " + good[11:], "error": "malformed"},
        {"comment": "oversize", "key": key16.hex(), "stored": b64(bytes(1024)) + b64(iv), "error": "malformed"},
        {"comment": "bad padding: last byte 0x11", "key": key16.hex(),
         "stored": b64(cbc_raw(key16, iv, b"24.962535" + b"\x11" * 7)) + b64(iv), "error": "couldNotDecrypt"},
        {"comment": "bad padding: inconsistent bytes", "key": key16.hex(),
         "stored": b64(cbc_raw(key16, iv, b"24.962535" + b"\x07" * 6 + b"\x06")) + b64(iv), "error": "couldNotDecrypt"},
        {"comment": "bad padding: zero", "key": key16.hex(),
         "stored": b64(cbc_raw(key16, iv, b"24.962535000000" + b"\x00")) + b64(iv), "error": "couldNotDecrypt"},
        {"comment": "wrong key (padding happens to fail)", "key": det("wrong", 16).hex(), "stored": good, "error": "couldNotDecrypt"},
        {"comment": "decrypts, but not a number", "key": key16.hex(),
         "stored": b64(cbc_encrypt(key16, iv, b"north")) + b64(iv), "error": "invalidPlaintext"},
        {"comment": "decrypts, but empty", "key": key16.hex(),
         "stored": b64(cbc_encrypt(key16, iv, b"")) + b64(iv), "error": "invalidPlaintext"},
        {"comment": "decrypts, but Infinity", "key": key16.hex(),
         "stored": b64(cbc_encrypt(key16, iv, b"1e999")) + b64(iv), "error": "invalidPlaintext"},
    ]
    # Make sure the "wrong key" case really fails padding in the reference implementation too.
    dec = Cipher(algorithms.AES(det("wrong", 16)), modes.CBC(iv)).decryptor()
    raw = dec.update(base64.b64decode(good[:-24])) + dec.finalize()
    unpad = padding.PKCS7(128).unpadder()
    try:
        unpad.update(raw) + unpad.finalize()
        raise SystemExit("pick another wrong key: padding verified by chance")
    except ValueError:
        pass
    keys_invalid = [
        {"comment": "15 bytes", "key": b64(bytes(15))},
        {"comment": "24 bytes", "key": b64(bytes(24))},
        {"comment": "not base64", "key": "AAECAwQFBgcICQoLDA0ODw=!"},
        {"comment": "missing padding", "key": "AAECAwQFBgcICQoLDA0ODw"},
        {"comment": "empty", "key": ""},
    ]
    return {"valid": valid, "invalid": invalid, "invalid_keys": keys_invalid}


def js_number_vectors():
    values = [
        ("24.962535", 24.962535), ("1e21", 1e21), ("1e-7", 1e-7), ("0.000001", 1e-6), ("1.5e-7", 1.5e-7),
        ("123e20", 123e20), ("123e18", 123e18), ("-0", -0.0), ("0.1+0.2", 0.1 + 0.2), ("2**53", 2.0 ** 53),
        ("5e-324", 5e-324), ("1.7976931348623157e308", 1.7976931348623157e308), ("-33.86882", -33.86882),
        ("100", 100.0), ("-180", -180.0), ("60.16990000000001", 60.16990000000001), ("1/3", 1 / 3),
        ("123456789012345680000", 123456789012345680000.0), ("0.00001234", 0.00001234),
        ("1e300*10", 1e301), ("-1e-10", -1e-10), ("4.35", 4.35), ("0.5", 0.5), ("1234.5e-10", 1234.5e-10),
    ]
    out = [{"js": js, "bits": struct.pack(">d", v).hex(), "text": js_number(v)} for js, v in values]
    real = node_eval([js for js, _ in values])
    if real is not None:
        for row, text in zip(out, real):
            assert row["text"] == text, (row, text)
    return out


# --- v2: AES-256-GCM over compact JSON -------------------------------------------------------
LABEL = b"parley-location-v2"


def v2_json(wp):
    s = '{"lat":%s,"lon":%s,"ts":%d,"acc":%s' % (js_number(wp["lat"]), js_number(wp["lon"]), wp["ts"], js_number(wp["acc"]))
    if wp.get("alt") is not None:
        s += ',"alt":%s' % js_number(wp["alt"])
    return s + "}"


def v2_ad(owner, route, ts):
    return LABEL + struct.pack(">QQQ", owner, route, ts)


def v2_seal(key, nonce, owner, route, ts, plaintext):
    return "v2:" + b64(nonce + AESGCM(key).encrypt(nonce, plaintext, v2_ad(owner, route, ts)))


def v2_vectors():
    valid = []
    points = [
        {"lat": 24.962535, "lon": 60.1699, "ts": 1800000000000, "acc": 4.5, "alt": None},
        {"lat": -33.86882, "lon": 151.20929, "ts": 1800000012345, "acc": 12, "alt": 58.25},
        {"lat": 1e-7, "lon": -180, "ts": 0, "acc": 0, "alt": -412.5},
        {"lat": 90, "lon": 180, "ts": 2 ** 53 - 1, "acc": 0.1, "alt": 8848.86},
    ]
    for i, wp in enumerate(points):
        key = det(f"v2 key {i}", 32)
        nonce = det(f"v2 nonce {i}", 12)
        owner, route = 7 + i, 1000 * (i + 1) + 3
        js = v2_json(wp)
        valid.append({"key": key.hex(), "nonce": nonce.hex(), "owner": owner, "route": route,
                      "latitude": wp["lat"], "longitude": wp["lon"], "timestamp": wp["ts"], "accuracy": wp["acc"],
                      "altitude": wp["alt"], "json": js, "ad": v2_ad(owner, route, wp["ts"]).hex(),
                      "stored": v2_seal(key, nonce, owner, route, wp["ts"], js.encode())})
    v = valid[0]
    key, nonce = bytes.fromhex(v["key"]), bytes.fromhex(v["nonce"])
    owner, route, ts = v["owner"], v["route"], v["timestamp"]
    body = base64.b64decode(v["stored"][3:])
    flipped = bytearray(body)
    flipped[15] ^= 1

    def case(comment, stored, error, owner=owner, route=route, ts=ts, key=key):
        return {"comment": comment, "key": key.hex(), "owner": owner, "route": route, "timestamp": ts,
                "stored": stored, "error": error}

    sealed = lambda pt, t=ts: v2_seal(key, nonce, owner, route, t, pt)
    invalid = [
        case("wrong key", v["stored"], "couldNotDecrypt", key=det("v2 wrong", 32)),
        case("other owner", v["stored"], "couldNotDecrypt", owner=owner + 1),
        case("other route", v["stored"], "couldNotDecrypt", route=route + 1),
        case("re-dated", v["stored"], "couldNotDecrypt", ts=ts + 1),
        case("ciphertext bit flipped", "v2:" + b64(bytes(flipped)), "couldNotDecrypt"),
        case("tag truncated", "v2:" + b64(body[:-1]), "couldNotDecrypt"),
        case("shorter than nonce and tag", "v2:" + b64(body[:27]), "malformed"),
        case("no prefix", v["stored"][3:], "malformed"),
        case("newer version", "v3:" + v["stored"][3:], "malformed"),
        case("legacy value", "gZa6zSEooB/lAAwRBzMAAA==EBESExQVFhcYGRobHB0eHw==", "malformed"),
        case("bad base64", "v2:" + v["stored"][3:-2] + "!=", "malformed"),
        case("empty", "", "malformed"),
        case("oversize", "v2:" + b64(bytes(1100)), "malformed"),
        case("timestamp in JSON differs", sealed(b'{"lat":1,"lon":2,"ts":5,"acc":0}'), "invalidPlaintext"),
        case("not JSON", sealed(b"lat=1,lon=2"), "invalidPlaintext"),
        case("JSON array", sealed(b"[1,2,3]"), "invalidPlaintext"),
        case("latitude 91", sealed(b'{"lat":91,"lon":2,"ts":%d,"acc":0}' % ts), "invalidPlaintext"),
        case("longitude as string", sealed(b'{"lat":1,"lon":"2","ts":%d,"acc":0}' % ts), "invalidPlaintext"),
        case("negative accuracy", sealed(b'{"lat":1,"lon":2,"ts":%d,"acc":-1}' % ts), "invalidPlaintext"),
        case("missing acc", sealed(b'{"lat":1,"lon":2,"ts":%d}' % ts), "invalidPlaintext"),
        case("fractional ts", sealed(b'{"lat":1,"lon":2,"ts":%d.5,"acc":0}' % ts), "invalidPlaintext"),
    ]
    accepted = [
        # Readers do not care about key order or unknown keys (a later v2 writer may add fields).
        {"comment": "other key order and an extra field", "key": key.hex(), "owner": owner, "route": route,
         "timestamp": ts, "stored": sealed(b'{"ts":%d,"acc":3,"lon":2.5,"lat":-1.25,"speed":4}' % ts),
         "latitude": -1.25, "longitude": 2.5, "accuracy": 3, "altitude": None},
    ]
    return {"valid": valid, "invalid": invalid, "accepted": accepted}


# --- links -----------------------------------------------------------------------------------
def link_vectors():
    bpt = []
    for i, (size, user, name) in enumerate([(16, "a1B2c3D4e5F6", "Ann"), (32, "Zz9yX8wV7uT6", "Bea & Cy/100%"),
                                            (16, "000000000000", None)]):
        key = det(f"link key {i}", size)
        kb = b64(key)
        twice = lambda s: encode_uri_component(encode_uri_component(s))
        once = encode_uri_component
        app = f"bpt://?cryptoKey={twice(kb)}&userId={twice(user)}" + (f"&username={twice(name)}" if name is not None else "")
        single = f"bpt://?cryptoKey={once(kb)}&userId={once(user)}" + (f"&username={once(name)}" if name is not None else "")
        bpt.append({"key": kb, "user_id": user, "username": name, "app_link": app, "once_link": single})
    real = node_eval([json.dumps(r["key"]) for r in bpt])
    if real is not None:
        check = node_eval([f"encodeURIComponent(encodeURIComponent({json.dumps(r['key'])}))" for r in bpt])
        for r, c in zip(bpt, check):
            assert f"cryptoKey={c}&" in r["app_link"], (r, c)
    assert "%252B" in bpt[0]["app_link"] or "%252F" in bpt[0]["app_link"] or "%253D" in bpt[0]["app_link"]
    bpt_invalid = [
        {"comment": "other scheme", "link": "https://example.org/?cryptoKey=AAECAwQFBgcICQoLDA0ODw%3D%3D&userId=x"},
        {"comment": "no query", "link": "bpt://"},
        {"comment": "no key", "link": "bpt://?userId=abc"},
        {"comment": "no user", "link": "bpt://?cryptoKey=AAECAwQFBgcICQoLDA0ODw%253D%253D"},
        {"comment": "key of 15 bytes", "link": "bpt://?cryptoKey=" + encode_uri_component(b64(bytes(15))) + "&userId=abc"},
        {"comment": "broken escape", "link": "bpt://?cryptoKey=AAECAwQFBgcICQoLDA0ODw%2&userId=abc"},
        {"comment": "broken escape on second decoding", "link": "bpt://?cryptoKey=AAECAwQFBgcICQoLDA0ODw%253D%25ZZ&userId=abc"},
        {"comment": "empty user", "link": "bpt://?cryptoKey=AAECAwQFBgcICQoLDA0ODw%3D%3D&userId="},
        {"comment": "oversize", "link": "bpt://?cryptoKey=AAECAwQFBgcICQoLDA0ODw%3D%3D&userId=" + "a" * 5000},
    ]
    parley = []
    for i, (owner, server, name) in enumerate([(7, None, None), (18446744073709551615, "chat.example.org:7443", "Ann B")]):
        key = det(f"parley link key {i}", 32)
        k = base64.urlsafe_b64encode(key).decode().rstrip("=")
        link = f"parley://location?v=2&owner={owner}&key={k}"
        if server is not None:
            link += "&server=" + encode_uri_component(server)
        if name is not None:
            link += "&name=" + encode_uri_component(name)
        parley.append({"owner": owner, "key": key.hex(), "server": server, "name": name, "link": link})
    k0 = base64.urlsafe_b64encode(det("parley link key 0", 32)).decode().rstrip("=")
    parley_invalid = [
        {"comment": "no version", "link": f"parley://location?owner=7&key={k0}"},
        {"comment": "version 3", "link": f"parley://location?v=3&owner=7&key={k0}"},
        {"comment": "owner not a number", "link": f"parley://location?v=2&owner=ann&key={k0}"},
        {"comment": "owner too large", "link": f"parley://location?v=2&owner=18446744073709551616&key={k0}"},
        {"comment": "key of 31 bytes", "link": "parley://location?v=2&owner=7&key=" + base64.urlsafe_b64encode(bytes(31)).decode().rstrip("=")},
        {"comment": "key in standard base64 with padding", "link": "parley://location?v=2&owner=7&key=" + b64(bytes(32))},
        {"comment": "duplicate owner", "link": f"parley://location?v=2&owner=7&owner=8&key={k0}"},
        {"comment": "other host", "link": f"parley://chat?v=2&owner=7&key={k0}"},
    ]
    return {"bpt": bpt, "bpt_invalid": bpt_invalid, "parley": parley, "parley_invalid": parley_invalid}


def write(name, value):
    os.makedirs(OUT, exist_ok=True)
    with open(os.path.join(OUT, name + ".json"), "w") as f:
        json.dump(value, f, indent=1, ensure_ascii=False)
        f.write("\n")


if __name__ == "__main__":
    write("legacy", legacy_vectors())
    write("js-number", js_number_vectors())
    write("v2", v2_vectors())
    write("links", link_vectors())
    print("wrote", os.path.abspath(OUT), "node checked" if shutil.which("node") else "(node not found: JS text unchecked)")
