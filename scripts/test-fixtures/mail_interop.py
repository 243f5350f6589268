#!/usr/bin/python3
"""Writes the mail other clients send, for Parley's interoperability and error tests.

Run with Debian's python3 (standard library only) and GnuPG 2.2:

    mail_interop.py --gnupg DIR --passphrase P --from bob@example.org --to ann@example.org --out DIR [--set interop|errors]

DIR (--gnupg) holds Bob's secret key and Ann's certificate. Each message is written to OUT as NN-name.eml
(CRLF line endings, 7-bit), plus `bytes.bin` (the bytes 0..255, the attachment used in the set). The "errors"
set also generates Carol's key in the same GnuPG home, as the recipient Ann does not have.
"""

import argparse
import base64
import email.encoders
import email.policy
import os
import subprocess
import sys
from email.header import Header
from email.message import EmailMessage, MIMEPart
from email.mime.application import MIMEApplication
from email.mime.multipart import MIMEMultipart
from email.mime.text import MIMEText

SMTP = email.policy.SMTP  # CRLF line endings, as on the wire
DATE = "Thu, 26 Nov 2026 09:14:00 +0000"
ATTACHMENT = bytes(range(256))


class Writer:
    def __init__(self, args):
        self.gnupg = args.gnupg
        self.passphrase = args.passphrase
        self.sender = args.sender
        self.recipient = args.recipient
        self.out = args.out

    # --- GnuPG -------------------------------------------------------------------------------------------------

    def gpg(self, arguments, data=b""):
        command = ["gpg", "--homedir", self.gnupg, "--batch", "--yes", "--no-tty", "--pinentry-mode", "loopback",
                   "--passphrase", self.passphrase, "--trust-model", "always"] + arguments
        result = subprocess.run(command, input=data, capture_output=True)
        if result.returncode != 0 and arguments[0] == "--quick-gen-key" and b"Corrupted protection" in result.stderr:
            # gpg-agent 2.2 now and then fails to self-sign a key it has just made: once more with a fresh agent.
            subprocess.run(["gpgconf", "--homedir", self.gnupg, "--kill", "gpg-agent"], capture_output=True)
            result = subprocess.run(command, input=data, capture_output=True)
        if result.returncode != 0:
            sys.exit("gpg %s failed: %s" % (" ".join(arguments), result.stderr.decode(errors="replace")))
        return result.stdout

    def encrypt(self, data, to=None, sign=True, armor=True, extra=()):
        arguments = (["--armor"] if armor else []) + ["--encrypt", "--recipient", to or self.recipient] + list(extra)
        if sign:
            arguments += ["--sign", "--local-user", self.sender]
        return self.gpg(arguments, data)

    # --- MIME --------------------------------------------------------------------------------------------------

    def headers(self, message, subject):
        message["From"] = "Bob <%s>" % self.sender
        message["To"] = "Ann <%s>" % self.recipient
        message["Subject"] = subject
        message["Date"] = DATE
        if "MIME-Version" not in message:
            message["MIME-Version"] = "1.0"
        return message

    def pgp_mime(self, subject, armored):
        """RFC 3156 §4: multipart/encrypted with the version part and the armored message."""
        outer = MIMEMultipart("encrypted", protocol="application/pgp-encrypted")
        version = MIMEApplication("Version: 1\n", "pgp-encrypted", _encoder=email.encoders.encode_7or8bit)
        version.add_header("Content-Description", "PGP/MIME version identification")
        payload = MIMEApplication(armored.decode("ascii"), "octet-stream", _encoder=email.encoders.encode_7or8bit,
                                  name="encrypted.asc")
        payload.add_header("Content-Disposition", "inline", filename="encrypted.asc")
        outer.attach(version)
        outer.attach(payload)
        return self.headers(outer, subject)

    def text_part(self, text, charset="utf-8", encoding="quoted-printable"):
        part = MIMEPart(policy=SMTP)
        part.set_content(text, charset=charset, cte=encoding)
        return part

    def signed(self, subject, text, tamper=None):
        """RFC 3156 §5: the part exactly as signed (CRLF), then a detached signature over it."""
        signed_part = self.text_part(text).as_bytes(policy=SMTP)
        signature = self.gpg(["--armor", "--detach-sign", "--digest-algo", "SHA256", "--local-user", self.sender],
                             signed_part)
        if tamper:
            old, new = tamper
            assert old in signed_part
            signed_part = signed_part.replace(old, new, 1)
        boundary = "signed-boundary-7d1f"
        head = self.headers(EmailMessage(policy=SMTP), subject)
        head["Content-Type"] = ('multipart/signed; micalg="pgp-sha256"; protocol="application/pgp-signature"; '
                                'boundary="%s"' % boundary)
        # The header fields only: the body is assembled by hand so the signed part keeps its exact bytes.
        fields = b"".join(SMTP.fold_binary(name, value) for name, value in head.items()) + b"\r\n"
        body = (b"This is an OpenPGP/MIME signed message (RFC 4880 and 3156)\r\n"
                b"--" + boundary.encode() + b"\r\n" + signed_part + b"\r\n"
                b"--" + boundary.encode() + b"\r\n"
                b"Content-Type: application/pgp-signature; name=\"signature.asc\"\r\n"
                b"Content-Description: OpenPGP digital signature\r\n"
                b"Content-Disposition: attachment; filename=\"signature.asc\"\r\n\r\n"
                + signature.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n") +
                b"\r\n--" + boundary.encode() + b"--\r\n")
        return fields + body

    def save(self, name, message):
        data = message if isinstance(message, bytes) else message.as_bytes()
        with open(os.path.join(self.out, name + ".eml"), "wb") as file:
            file.write(crlf(data))

    # --- the interoperability set ------------------------------------------------------------------------------

    def interop(self):
        # 1. PGP/MIME, encrypted and signed (Thunderbird, Mailvelope, FlowCrypt).
        inner = self.text_part("Meet at the north gate at nine.\nBring the blue folder.\n").as_bytes(policy=SMTP)
        self.save("01-pgpmime", self.pgp_mime("Plan for the weekend", self.encrypt(inner)))

        # 2. PGP/MIME with an attachment inside the encrypted entity.
        mixed = MIMEMultipart("mixed")
        mixed.attach(MIMEText("The bytes are attached.\n", "plain", "utf-8"))
        mixed.attach(MIMEApplication(ATTACHMENT, "octet-stream", name="bytes.bin"))
        mixed.get_payload()[1].add_header("Content-Disposition", "attachment", filename="bytes.bin")
        self.save("02-pgpmime-attachment", self.pgp_mime("Bytes inside", self.encrypt(crlf(mixed.as_bytes()))))

        # 3. Inline PGP: an armored message as a text/plain body, between lines of plain text.
        armored = self.encrypt(b"The key is under the mat.\n").decode("ascii")
        message = MIMEText("Hi Ann,\n\n" + armored + "\nBob\n", "plain", "us-ascii")
        self.save("03-inline", self.headers(message, "Inline secret"))

        # 4 and 5. PGP/MIME signed only; then the same with one word changed after signing.
        minutes = "Minutes of the meeting:\n- budget approved\n- next meeting on Friday\n"
        self.save("04-signed", self.signed("Signed minutes", minutes))
        self.save("05-signed-tampered", self.signed("Signed minutes, altered", minutes,
                                                    tamper=(b"approved", b"rejected")))

        # 6. Inline clearsigned text (dash-escaped lines included).
        clear = self.gpg(["--clearsign", "--digest-algo", "SHA256", "--local-user", self.sender],
                         b"This note is signed in the clear.\n- a line that starts with a dash\n").decode("ascii")
        self.save("06-clearsigned", self.headers(MIMEText(clear, "plain", "us-ascii"), "Clearsigned note"))

        # 7. An otherwise plain message with an encrypted file (binary OpenPGP, base64) as its own part.
        mixed = MIMEMultipart("mixed")
        mixed.attach(MIMEText("The report is encrypted separately.\n", "plain", "us-ascii"))
        encrypted_file = MIMEApplication(self.encrypt(ATTACHMENT, armor=False), "octet-stream", name="report.bin.pgp")
        encrypted_file.add_header("Content-Disposition", "attachment", filename="report.bin.pgp")
        mixed.attach(encrypted_file)
        self.save("07-encrypted-file", self.headers(mixed, "Report attached"))

        # 8. ISO-8859-1 text in quoted-printable, with an ISO-8859-1 encoded-word subject.
        latin = MIMEText("Grüße aus Köln. Prêt à partir?\n", "plain", "iso-8859-1")  # Python's default: QP
        self.save("08-latin1", self.headers(latin, Header("Grüße aus Köln", "iso-8859-1")))

        # 9. Base64 UTF-8 text with a UTF-8 (B-encoded) subject.
        utf8 = MIMEText("Съешь ещё этих мягких булок. 東京で会いましょう。\n", "plain", "utf-8")  # Python's default: base64
        self.save("09-utf8-base64", self.headers(utf8, Header("Привет из Москвы ✓ 東京", "utf-8")))

    # --- the error set -----------------------------------------------------------------------------------------

    def errors(self, password):
        secret = b"The vault code is 7351.\n"
        inner = self.text_part(secret.decode()).as_bytes(policy=SMTP)

        # key_mismatch: encrypted to Carol, whose secret key Ann does not have.
        self.gpg(["--quick-gen-key", "Carol <carol@example.org>", "ed25519", "sign", "never"])
        carol = self.fingerprint("carol@example.org")
        self.gpg(["--quick-add-key", carol, "cv25519", "encr", "never"])
        self.save("01-key-mismatch", self.pgp_mime("For Carol only", self.encrypt(inner, to="carol@example.org")))

        # use_password: encrypted with a password only (gpg --symmetric).
        symmetric = self.gpg(["--armor", "--symmetric", "--passphrase", password], inner)
        self.save("02-use-password", self.pgp_mime("By password", symmetric))

        # wrong_password / need_passphrase: a good message, read with a wrong or no pass phrase.
        self.save("03-good", self.pgp_mime("Needs your key", self.encrypt(inner)))

        # no_mdc: a Symmetrically Encrypted Data packet (tag 9, CFB without MDC); GnuPG 2.2 writes one only
        # with --rfc2440.
        self.save("04-no-mdc", self.pgp_mime("Without MDC", self.encrypt(inner, sign=False, extra=["--rfc2440"])))

        # bad_mdc: a real message with one byte flipped in the middle of its encrypted data packet.
        binary = bytearray(self.encrypt(inner, armor=False))
        start, end = self.seipd_body(binary)
        binary[(start + end) // 2] ^= 0x01
        self.save("05-bad-mdc", self.pgp_mime("Altered on the way", armor(bytes(binary))))

        # format: armor cut short (no END line), and garbage between BEGIN and END (inline).
        good = self.encrypt(inner)
        self.save("06-truncated", self.pgp_mime("Cut short", good[: len(good) // 2]))
        garbage = ("-----BEGIN PGP MESSAGE-----\n\nThis is not base64 at all, just words!\n"
                   "-----END PGP MESSAGE-----\n")
        self.save("07-garbage", self.headers(MIMEText("Hello Ann,\n\n" + garbage + "\nBob\n", "plain", "us-ascii"),
                                             "Garbage inside"))

        # other: a cipher Parley does not implement (Camellia-256), to Ann's key.
        self.save("08-camellia", self.pgp_mime("Unusual cipher", self.encrypt(inner, extra=["--cipher-algo", "CAMELLIA256"])))

    def fingerprint(self, user):
        for line in self.gpg(["--list-keys", "--with-colons", user]).decode().splitlines():
            if line.startswith("fpr:"):
                return line.split(":")[9]
        sys.exit("no fingerprint for " + user)

    @staticmethod
    def seipd_body(data):
        """The byte range of the body of the Symmetrically Encrypted Integrity Protected Data packet (tag 18)."""
        offset = 0
        while offset < len(data):
            header = data[offset]
            assert header & 0x80, "not an OpenPGP packet"
            if header & 0x40:  # new format
                tag = header & 0x3F
                first = data[offset + 1]
                if first < 192:
                    length, size = first, 2
                elif first < 224:
                    length, size = ((first - 192) << 8) + data[offset + 2] + 192, 3
                elif first == 255:
                    length, size = int.from_bytes(data[offset + 2: offset + 6], "big"), 6
                else:
                    # A partial body length: GnuPG streams the encrypted data this way; the rest is the packet.
                    return offset + 2, len(data)
            else:
                tag = (header >> 2) & 0x0F
                kind = header & 3
                size = 1 + {0: 1, 1: 2, 2: 4}[kind]
                length = int.from_bytes(data[offset + 1: offset + size], "big")
            if tag == 18:
                return offset + size, offset + size + length
            offset += size + length
        sys.exit("no encrypted data packet")


def crlf(data):
    """Every line ending as CRLF."""
    return data.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")


def crc24(data):
    crc = 0xB704CE
    for byte in data:
        crc ^= byte << 16
        for _ in range(8):
            crc <<= 1
            if crc & 0x1000000:
                crc ^= 0x1864CFB
    return crc & 0xFFFFFF


def armor(data):
    """RFC 4880 §6.2 ASCII armor for a message."""
    encoded = base64.b64encode(data).decode("ascii")
    lines = [encoded[i: i + 64] for i in range(0, len(encoded), 64)]
    checksum = base64.b64encode(crc24(data).to_bytes(3, "big")).decode("ascii")
    return ("-----BEGIN PGP MESSAGE-----\n\n" + "\n".join(lines) + "\n=" + checksum +
            "\n-----END PGP MESSAGE-----\n").encode("ascii")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--gnupg", required=True)
    parser.add_argument("--passphrase", required=True, help="Bob's key pass phrase (a test key)")
    parser.add_argument("--from", dest="sender", required=True)
    parser.add_argument("--to", dest="recipient", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--set", choices=["interop", "errors"], default="interop")
    parser.add_argument("--message-password", default="a password for the message")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "bytes.bin"), "wb") as file:
        file.write(ATTACHMENT)
    writer = Writer(args)
    if args.set == "interop":
        writer.interop()
    else:
        writer.errors(args.message_password)
    print("\n".join(sorted(name for name in os.listdir(args.out) if name.endswith(".eml"))))


if __name__ == "__main__":
    main()
