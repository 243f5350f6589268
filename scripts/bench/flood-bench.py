#!/usr/bin/env python3
"""The issue-20 flood: one source address opens N connections that never log in, each holding an unfinished
request line as long as the server allows before login, finishing it just before sending the next and pinging
in between (what kept connections open before the login deadline counted from the accept). Reports the
server's resident memory (VmRSS) at baseline, its peak during the flood, and after the flood has gone.

Usage: scripts/bench/flood-bench.py --pid PID --port PORT [--connections 1000] [--seconds 40]
       [--source 127.0.0.2] [--line-kib 120] [--settle 15]
Start the server with its defaults first, e.g.  parley server --dev --data /tmp/flood --listen 127.0.0.1:7433
Prints one Markdown table row per phase; the counts of refused and closed connections go to standard error.
"""
import argparse, os, selectors, socket, sys, time


def rss_mib(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pid", type=int, required=True)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--source", default="127.0.0.2")
    parser.add_argument("--connections", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=40)
    parser.add_argument("--line-kib", type=int, default=120)
    parser.add_argument("--settle", type=float, default=15)
    args = parser.parse_args()

    baseline = rss_mib(args.pid)
    chunk = b"A" * (args.line_kib << 10)
    ping = b'{"type":"ping","request_id":"f"}\n'
    selector = selectors.DefaultSelector()
    open_sockets, refused, closed = [], 0, 0
    for _ in range(args.connections):
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.bind((args.source, 0))
        try:
            s.connect((args.host, args.port))
        except OSError:
            refused += 1
            s.close()
            continue
        s.setblocking(False)
        open_sockets.append(s)
        selector.register(s, selectors.EVENT_READ)
    peak = rss_mib(args.pid)
    start = time.monotonic()
    rounds = 0
    while time.monotonic() - start < args.seconds and open_sockets:
        rounds += 1
        for s in list(open_sockets):
            try:
                # Finish the previous line, ping, and start another unfinished line.
                s.send(b"\n" + ping + chunk)
            except (BlockingIOError, InterruptedError):
                pass
            except OSError:
                closed += 1
                open_sockets.remove(s)
                selector.unregister(s)
                s.close()
        for key, _ in selector.select(timeout=0.2):
            s = key.fileobj
            try:
                if not s.recv(65536):
                    raise OSError("closed")
            except (BlockingIOError, InterruptedError):
                pass
            except OSError:
                if s in open_sockets:
                    closed += 1
                    open_sockets.remove(s)
                    selector.unregister(s)
                    s.close()
        peak = max(peak, rss_mib(args.pid))
        time.sleep(0.5)
    elapsed = time.monotonic() - start
    still_open = len(open_sockets)
    for s in open_sockets:
        s.close()
    time.sleep(args.settle)
    after = rss_mib(args.pid)
    print(f"flood from {args.source}: {args.connections} attempted, {refused} refused at connect, "
          f"{closed} closed by the server, {still_open} still open after {elapsed:.0f} s ({rounds} rounds)", file=sys.stderr)
    print("| baseline RSS | peak RSS during | peak − baseline | RSS after (+{:.0f} s) | after − baseline |".format(args.settle))
    print("|---|---|---|---|---|")
    print(f"| {baseline:.1f} MiB | {peak:.1f} MiB | {peak - baseline:+.1f} MiB | {after:.1f} MiB | "
          f"{after - baseline:+.1f} MiB ({(after - baseline) / baseline * 100:+.0f} %) |")


if __name__ == "__main__":
    main()
