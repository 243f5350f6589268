#!/usr/bin/env python3
"""Parley's file and OpenPGP paths beside age and gpg, as issue 28 measures them: interleaved runs, medians and ranges.

Usage: scripts/bench/head-to-head.py PARLEY [--file-mib 1024] [--pgp-mib 100] [--runs 3] [--only files|pgp]
                                           [--baseline OTHER_PARLEY]

PARLEY (and OTHER_PARLEY) may be the `parley-file` program instead of `parley`: its rows run `parley-file seal` where
`parley`'s run `parley file seal`, and it has no OpenPGP rows (give `--only files`). `parley-file` beside `parley`
as the baseline compares the two programs, and age, in one interleaved run. `--only sop` runs `sop encrypt` and
`sop decrypt` (the same gpg key, its certificate and its secret key as files) beside gpg, for `parley-sop` or
`parley sop`.

Each row is one operation done by Parley and by its peer on the same input, to /dev/null and to a file: `parley file
seal`/`open` (X25519) beside `age -r`/`age -d`, `parley pgp encrypt`/`decrypt` (Cv25519, no compression) beside
`gpg -e`/`gpg -d`. Within each round the two run one after the other, the order alternating between rounds, so a
change in the machine's load hits both alike. Wall time is the median of the runs with the range beside it; peak
memory is the child's largest resident set (wait4's ru_maxrss). Parley syncs a file it writes before renaming it into
place; age and gpg do not sync (the disk is synced before every run, so no tool pays for the one before). Every
output is compared with the input. Needs age, gnupg and time
(scripts/bench/compare installs them); prints a Markdown table with the load average.
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time


def timed(command, cwd, env):
    """Runs `command`, its standard output to /dev/null; returns (seconds, peak RSS in MiB). Stops on a failure.

    Through /usr/bin/time, a small C program: a child forked from this Python process would count Python's own
    resident set in its peak (the kernel keeps the peak across exec)."""
    with open(os.devnull, "wb") as sink, tempfile.TemporaryFile() as errors, tempfile.NamedTemporaryFile("r") as report:
        started = time.monotonic()
        status = subprocess.run(["/usr/bin/time", "-f", "%M", "-o", report.name] + command,
                                stdout=sink, stderr=errors, cwd=cwd, env=env).returncode
        elapsed = time.monotonic() - started
        if status != 0:
            errors.seek(0)
            sys.exit(f"head-to-head: {' '.join(command)} failed: {errors.read().decode(errors='replace')}")
        peak = int(report.read().split()[-1])
    return elapsed, peak / 1024


def same_file(a, b):
    with open(a, "rb") as x, open(b, "rb") as y:
        while True:
            left, right = x.read(1 << 20), y.read(1 << 20)
            if left != right:
                return False
            if not left:
                return True


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("parley")
    parser.add_argument("--file-mib", type=int, default=1024)
    parser.add_argument("--pgp-mib", type=int, default=100)
    parser.add_argument("--only", choices=["files", "pgp", "sop"], help="only the file rows, the OpenPGP rows or the SOP rows")
    parser.add_argument("--baseline", help="another parley binary (an older build), run beside PARLEY in every round")
    parser.add_argument("--runs", type=int, default=3)
    options = parser.parse_args()
    parley = os.path.abspath(options.parley)
    baseline = os.path.abspath(options.baseline) if options.baseline else None

    def file_command(program, *arguments):
        """`parley file ARGUMENTS`, or `parley-file ARGUMENTS`."""
        return [program] + ([] if os.path.basename(program) == "parley-file" else ["file"]) + list(arguments)

    def sop_command(program, arguments, stdin, stdout=None):
        """`parley sop ARGUMENTS < STDIN [> STDOUT]`, or `parley-sop …`, through a shell that execs it (its peak is the
        program's; the shell's own is smaller)."""
        words = [program] + ([] if os.path.basename(program) == "parley-sop" else ["sop"]) + arguments
        line = "exec " + " ".join(words) + f" < {stdin}" + (f" > {stdout}" if stdout else "")
        return ["sh", "-c", line]

    work = tempfile.mkdtemp(prefix="parley-head-to-head.", dir=os.environ.get("TMPDIR", "/var/tmp"))
    env = dict(os.environ, GNUPGHOME=os.path.join(work, "gnupg"), PARLEY_PASSWORD="bench password",
               PARLEY_PGP_PASSPHRASE="bench pass phrase")
    os.mkdir(env["GNUPGHOME"], 0o700)

    def setup(*command, **kwargs):
        subprocess.run(command, cwd=work, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, **kwargs)

    files, pgp = options.only in (None, "files"), options.only in (None, "pgp", "sop")
    print(f"making the random files and keys…", file=sys.stderr)
    for name, mib, wanted in (("plain", options.file_mib, files), ("pgp-plain", options.pgp_mib, pgp)):
        if not wanted:
            continue
        with open(os.path.join(work, name), "wb") as out:
            for _ in range(mib):
                out.write(os.urandom(1 << 20))
    if files:
        setup(*file_command(parley, "keygen", "--kind", "x25519", "-o", "x.ecp1", "--public", "x.pem", "--iterations", "210000"))
        setup("age-keygen", "-o", "age.key")
        recipient = subprocess.run(["age-keygen", "-y", "age.key"], cwd=work, check=True, capture_output=True, text=True).stdout.strip()
        # The inputs of the opening rows, made once by each tool.
        setup(*file_command(parley, "seal", "-r", "x.pem", "plain", "-o", "p.prly"))
        setup("age", "-r", recipient, "-o", "a.age", "plain")
    else:
        recipient = None
    gpg = ["gpg", "--batch", "--yes", "-q", "--pinentry-mode", "loopback", "--passphrase", env["PARLEY_PGP_PASSPHRASE"]]
    if pgp:
        setup(*gpg, "--quick-gen-key", "bench@parley.invalid", "future-default", "default", "never")
        with open(os.path.join(work, "key.sec.asc"), "wb") as key:
            subprocess.run(gpg + ["--armor", "--export-secret-keys", "bench@parley.invalid"], cwd=work, env=env, check=True, stdout=key)
        with open(os.path.join(work, "cert.asc"), "wb") as cert:
            subprocess.run(gpg + ["--armor", "--export", "bench@parley.invalid"], cwd=work, env=env, check=True, stdout=cert)
        if options.only != "sop":
            setup(parley, "pgp", "keys", "import", "--keyring", "keyring", "key.sec.asc")
        setup(*gpg, "--compress-algo", "none", "-e", "-r", "bench@parley.invalid", "-o", "g.gpg", "pgp-plain")

    file_bytes, pgp_bytes = options.file_mib << 20, options.pgp_mib << 20
    rows = [
        # name, bytes, output file (None: standard output to /dev/null), the input it must equal, Parley's command (a
        # function of the program), the peer's
        ("seal, to /dev/null", file_bytes, None, None,
         lambda program: file_command(program, "seal", "-r", "x.pem", "plain", "-o", "-"), ["age", "-r", recipient, "plain"]),
        ("seal, to a file", file_bytes, "sealed", None,
         lambda program: file_command(program, "seal", "-r", "x.pem", "plain", "-o", "sealed"),
         ["age", "-r", recipient, "-o", "sealed", "plain"]),
        ("open, to /dev/null", file_bytes, None, None,
         lambda program: file_command(program, "open", "-i", "x.ecp1", "p.prly", "-o", "-"), ["age", "-d", "-i", "age.key", "a.age"]),
        ("open, to a file", file_bytes, "opened", "plain",
         lambda program: file_command(program, "open", "-i", "x.ecp1", "p.prly", "-o", "opened"),
         ["age", "-d", "-i", "age.key", "-o", "opened", "a.age"]),
        ("pgp encrypt, to /dev/null", pgp_bytes, None, None,
         lambda program: [program, "pgp", "encrypt", "--keyring", "keyring", "-r", "bench@parley.invalid", "-o", "-", "pgp-plain"],
         gpg + ["--compress-algo", "none", "-e", "-r", "bench@parley.invalid", "-o", "-", "pgp-plain"]),
        ("pgp encrypt, to a file", pgp_bytes, "encrypted", None,
         lambda program: [program, "pgp", "encrypt", "--keyring", "keyring", "-r", "bench@parley.invalid", "-o", "encrypted", "pgp-plain"],
         gpg + ["--compress-algo", "none", "-e", "-r", "bench@parley.invalid", "-o", "encrypted", "pgp-plain"]),
        ("pgp decrypt (gpg's message), to /dev/null", pgp_bytes, None, None,
         lambda program: [program, "pgp", "decrypt", "--keyring", "keyring", "-o", "-", "g.gpg"], gpg + ["-d", "-o", "-", "g.gpg"]),
        ("pgp decrypt (gpg's message), to a file", pgp_bytes, "decrypted", "pgp-plain",
         lambda program: [program, "pgp", "decrypt", "--keyring", "keyring", "-o", "decrypted", "g.gpg"],
         gpg + ["-d", "-o", "decrypted", "g.gpg"]),
    ]
    unlock = ["--with-key-password", "@ENV:PARLEY_PGP_PASSPHRASE", "key.sec.asc"]
    rows += [
        ("sop encrypt, to /dev/null", pgp_bytes, None, None,
         lambda program: sop_command(program, ["encrypt", "--no-armor", "cert.asc"], "pgp-plain"),
         gpg + ["--compress-algo", "none", "-e", "-r", "bench@parley.invalid", "-o", "-", "pgp-plain"]),
        ("sop encrypt, to a file", pgp_bytes, "encrypted", None,
         lambda program: sop_command(program, ["encrypt", "--no-armor", "cert.asc"], "pgp-plain", "encrypted"),
         gpg + ["--compress-algo", "none", "-e", "-r", "bench@parley.invalid", "-o", "encrypted", "pgp-plain"]),
        ("sop decrypt (gpg's message), to /dev/null", pgp_bytes, None, None,
         lambda program: sop_command(program, ["decrypt"] + unlock, "g.gpg"), gpg + ["-d", "-o", "-", "g.gpg"]),
        ("sop decrypt (gpg's message), to a file", pgp_bytes, "decrypted", "pgp-plain",
         lambda program: sop_command(program, ["decrypt"] + unlock, "g.gpg", "decrypted"), gpg + ["-d", "-o", "decrypted", "g.gpg"]),
    ]
    def kind(name):
        return "pgp" if name.startswith("pgp") else "sop" if name.startswith("sop") else "files"
    wanted = {options.only} if options.only else {"files", "pgp"}
    rows = [row for row in rows if kind(row[0]) in wanted]
    # Each tool as a column: Parley, then the older build when given, then the peer. The order rotates every round.
    def commands(row):
        tools = [row[4](parley)] + ([row[4](baseline)] if baseline else []) + [row[5]]
        return tools
    load = open("/proc/loadavg").read().split()[:3]
    columns = 3 if baseline else 2
    results = {row[0]: ([[] for _ in range(columns)], [[] for _ in range(columns)]) for row in rows}
    for run in range(options.runs):
        for row in rows:
            name, _, output, original = row[:4]
            tools = list(enumerate(commands(row)))
            shift = run % len(tools)
            for which, command in tools[shift:] + tools[:shift]:
                if output:
                    path = os.path.join(work, output)
                    if os.path.exists(path):
                        os.remove(path)
                # What the previous tool left unwritten (age and gpg do not sync) goes to the disk now, not while the
                # next one runs: otherwise whoever follows age pays for its writes.
                os.sync()
                seconds, rss = timed(command, work, env)
                results[name][0][which].append(seconds)
                results[name][1][which].append(rss)
                if original and not same_file(os.path.join(work, output), os.path.join(work, original)):
                    sys.exit(f"head-to-head: {' '.join(command)} wrote something other than the input")
    load_after = open("/proc/loadavg").read().split()[:3]

    def shown(times):
        return f"{statistics.median(times):.2f} s ({min(times):.2f}–{max(times):.2f})"

    print(f"{options.runs} interleaved runs; load average {' '.join(load)} before, {' '.join(load_after)} after")
    print()
    before = "| before (baseline) " if baseline else ""
    print(f"| operation | size | Parley {before}| peer | peer ÷ Parley (medians) | Parley peak RSS | peer peak RSS |")
    print("|---|---:|---:|" + ("---:|" if baseline else "") + "---:|---:|---:|---:|")
    for row in rows:
        name, size, peer = row[0], row[1], os.path.basename(row[5][0])
        times, peaks = results[name]
        ratio = statistics.median(times[-1]) / statistics.median(times[0])
        older = f"| {shown(times[1])} " if baseline else ""
        print(f"| {name} | {size >> 20} MiB | {shown(times[0])} {older}| {peer} {shown(times[-1])} | {ratio:.2f}× | "
              f"{max(peaks[0]):.1f} MiB | {max(peaks[-1]):.1f} MiB |")
    subprocess.run(["gpgconf", "--kill", "all"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    subprocess.run(["rm", "-rf", work])


if __name__ == "__main__":
    main()
