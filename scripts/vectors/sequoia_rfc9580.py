#!/usr/bin/env python3
"""RFC 9580 (v6) vectors made by Sequoia-PGP, an implementation nobody on the team wrote, for ParleyPGP's tests,
and the check the other way: Sequoia reading what Parley writes.

    pip install pysequoia          # Sequoia-PGP 2.x behind a Python API (RFC 9580 profile)
    scripts/vectors/sequoia_rfc9580.py make  Tests/ParleyPGPTests/Vectors/rfc9580/sequoia
    scripts/vectors/sequoia_rfc9580.py check DIR   # DIR holds parley-cert.asc, parley-to-sequoia.asc,
                                                   # parley-signed.asc and the sequoia-secret-key.asc made above

`make` writes a v6 secret key and certificate, a message encrypted to that certificate and signed by it, an
inline-signed and a cleartext-signed message, a detached signature and its data, a message encrypted to a
password, and manifest.json with what each must give. `check` decrypts and verifies Parley's output with Sequoia
and prints what it found; it exits 1 on any failure.
"""
import json
import os
import sys

import pysequoia as ps

PLAIN = b"Written by Sequoia for Parley to read.\n"
PASSWORD = "correct horse battery staple"


def make(out):
    os.makedirs(out, exist_ok=True)
    tsk = ps.Tsk.generate("Sequoia Peer <sequoia@example.org>", profile=ps.Profile.RFC9580)
    cert = tsk.extract_certificate()
    files = {
        "sequoia-secret-key.asc": str(tsk),
        "sequoia-cert.asc": str(cert),
        "sequoia-encrypted-signed.asc": ps.encrypt(PLAIN, recipients=[cert], signer=tsk.signer()).decode(),
        "sequoia-inline-signed.asc": ps.sign(tsk.signer(), PLAIN).decode(),
        "sequoia-cleartext-signed.asc": ps.sign(tsk.signer(), PLAIN, mode=ps.SignatureMode.CLEAR).decode(),
        "sequoia-detached.sig": ps.sign(tsk.signer(), PLAIN, mode=ps.SignatureMode.DETACHED).decode(),
        "sequoia-password.asc": ps.encrypt(PLAIN, passwords=[PASSWORD]).decode(),
    }
    for name, text in files.items():
        with open(os.path.join(out, name), "w", encoding="utf-8") as f:
            f.write(text)
    with open(os.path.join(out, "data.txt"), "wb") as f:
        f.write(PLAIN)
    manifest = {
        "source": "Sequoia-PGP via pysequoia %s, RFC 9580 profile; made by scripts/vectors/sequoia_rfc9580.py" % getattr(ps, "__version__", "0.1.35"),
        "fingerprint": cert.fingerprint,
        "plaintext": PLAIN.decode(),
        "password": PASSWORD,
        "files": sorted(files) + ["data.txt"],
    }
    with open(os.path.join(out, "manifest.json"), "w", encoding="utf-8") as f:
        json.dump(manifest, f, indent=2)
        f.write("\n")
    print("wrote %d files to %s (fingerprint %s)" % (len(files) + 2, out, cert.fingerprint))


def check(directory):
    def read(name):
        with open(os.path.join(directory, name), "rb") as f:
            return f.read()

    failures = 0
    parley = ps.Cert.from_bytes(read("parley-cert.asc"))
    print("parley's certificate: fingerprint %s (%d hex digits: %s)" % (
        parley.fingerprint, len(parley.fingerprint), "v6" if len(parley.fingerprint) == 64 else "not v6"))
    if len(parley.fingerprint) != 64:
        failures += 1
    tsk = ps.Tsk.from_bytes(read("sequoia-secret-key.asc"))
    try:
        decrypted = ps.decrypt(read("parley-to-sequoia.asc"), decryptor=tsk.decryptor(), store=lambda ids: [parley])
        print("parley's message to sequoia: decrypted %r, %d valid signature(s)" % (decrypted.bytes, len(decrypted.valid_sigs)))
        if not decrypted.valid_sigs:
            failures += 1
    except Exception as error:  # noqa: BLE001 - any failure is reported as such
        print("parley's message to sequoia: FAILED: %s" % error)
        failures += 1
    try:
        verified = ps.verify(read("parley-signed.asc"), store=lambda ids: [parley])
        print("parley's inline-signed message: %r, %d valid signature(s)" % (verified.bytes, len(verified.valid_sigs)))
        if not verified.valid_sigs:
            failures += 1
    except Exception as error:  # noqa: BLE001
        print("parley's inline-signed message: FAILED: %s" % error)
        failures += 1
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in ("make", "check"):
        print(__doc__)
        sys.exit(2)
    (make if sys.argv[1] == "make" else check)(sys.argv[2])
