#!/usr/bin/python3
"""A real SMTP server for Parley's mailer tests: aiosmtpd (Debian's python3-aiosmtpd) with optional
STARTTLS or implicit TLS and AUTH PLAIN, saving every accepted message into a maildir.

Prints "READY <port>" once it accepts connections, then runs until killed.
"""
import argparse
import socket
import ssl
import sys
import time

from aiosmtpd.controller import Controller
from aiosmtpd.handlers import Mailbox
from aiosmtpd.smtp import AuthResult


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--maildir", required=True)
    parser.add_argument("--cert")
    parser.add_argument("--key")
    parser.add_argument("--implicit-tls", action="store_true")
    parser.add_argument("--user")
    parser.add_argument("--password")
    args = parser.parse_args()

    context = None
    if args.cert:
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.load_cert_chain(args.cert, args.key)

    def authenticator(server, session, envelope, mechanism, auth_data):
        ok = args.user is not None and auth_data.login == args.user.encode() and auth_data.password == args.password.encode()
        # handled=False: aiosmtpd then answers 535 itself (handled=True would leave the client waiting).
        return AuthResult(success=ok, handled=False)

    port = free_port()
    options = dict(hostname="127.0.0.1", port=port, authenticator=authenticator if args.user else None,
                   auth_require_tls=bool(context), auth_required=bool(args.user))
    if context and args.implicit_tls:
        options["ssl_context"] = context
    elif context:
        options["tls_context"] = context
        options["require_starttls"] = True
    controller = Controller(Mailbox(args.maildir), **options)
    controller.start()
    print(f"READY {port}", flush=True)
    try:
        while True:
            time.sleep(3600)
    finally:
        controller.stop()


if __name__ == "__main__":
    sys.exit(main())
