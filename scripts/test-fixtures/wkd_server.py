#!/usr/bin/python3
"""A Web Key Directory server for Parley's key-discovery tests: Python's http.server over TLS, serving
ROOT/HOST/PATH for the request's Host header (so one server plays several domains), with hostile hosts on demand.

  --big-host HOST       answers every path on HOST with 300 KiB of key-looking bytes (over Parley's limit)
  --any-file HOST=FILE  answers every path on HOST with FILE (e.g. someone else's key)
  --status HOST=CODE    answers every path on HOST with that HTTP status and no body

Prints "READY <port>" once it accepts connections, then runs until killed.
"""
import argparse
import http.server
import os
import ssl
import sys


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--root", required=True)
    parser.add_argument("--cert", required=True)
    parser.add_argument("--key", required=True)
    parser.add_argument("--big-host", action="append", default=[])
    parser.add_argument("--any-file", action="append", default=[])
    parser.add_argument("--status", action="append", default=[])
    args = parser.parse_args()
    any_file = dict(entry.split("=", 1) for entry in args.any_file)
    status = {host: int(code) for host, code in (entry.split("=", 1) for entry in args.status)}

    class Handler(http.server.BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def answer(self, code, body=b""):
            self.send_response(code)
            self.send_header("Content-Type", "application/octet-stream")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def do_GET(self):
            host = (self.headers.get("Host") or "").split(":")[0].lower()
            if host in args.big_host:
                return self.answer(200, b"\x99" * (300 * 1024))
            if host in any_file:
                with open(any_file[host], "rb") as f:
                    return self.answer(200, f.read())
            if host in status:
                return self.answer(status[host])
            path = self.path.split("?", 1)[0]
            full = os.path.realpath(os.path.join(args.root, host, path.lstrip("/")))
            if not full.startswith(os.path.realpath(args.root) + os.sep) or not os.path.isfile(full):
                return self.answer(404)
            with open(full, "rb") as f:
                self.answer(200, f.read())

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(args.cert, args.key)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    print(f"READY {server.server_address[1]}", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    sys.exit(main())
