#!/usr/bin/env bash
# Benchmarks `parley pgp` against GnuPG on the same random file, in the same run: encrypt to one
# Cv25519 key without compression, and decrypt the same gpg-made message (plus each tool's own); then
# Parley's RFC 9580 form (v6 X25519 key, SEIPD v2 with AES-256-OCB), which gpg 2.2 cannot read.
# Usage: scripts/bench/pgp-bench.sh [SIZE_MIB] [REPEATS]     (default 100 MiB, 3 repeats)
# Needs the Debian packages gnupg and time (installed here if missing); set PARLEY to use a built
# binary instead of building one (`swift build -c release --product parley`).
# Prints a Markdown table: median wall time, throughput and peak RSS (/usr/bin/time -v) per operation.
set -euo pipefail
cd "$(dirname "$0")/../.."

size_mib="${1:-100}"
repeats="${2:-3}"

missing=()
for package in gnupg time; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if ((${#missing[@]})); then
    apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi

if [[ -z "${PARLEY:-}" ]]; then
    swift build -c release --product parley >&2
    PARLEY="$PWD/.build/release/parley"
fi

work="$(mktemp -d "${TMPDIR:-/var/tmp}/parley-pgp-bench.XXXXXX")"
trap 'gpgconf --kill all >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
cd "$work"
export GNUPGHOME="$work/gnupg" PARLEY_PGP_PASSPHRASE="bench pass phrase"
mkdir -m 700 "$GNUPGHOME"
gpg_batch=(gpg --batch --yes -q --pinentry-mode loopback --passphrase "$PARLEY_PGP_PASSPHRASE")

echo "making a ${size_mib} MiB random file and a Cv25519 key…" >&2
head -c "$((size_mib << 20))" /dev/urandom > plain
"${gpg_batch[@]}" --quick-gen-key bench@parley.invalid future-default default never 2>/dev/null
"${gpg_batch[@]}" --armor --export-secret-keys bench@parley.invalid > key.sec.asc
"$PARLEY" pgp keys import --keyring keyring key.sec.asc >/dev/null
# A v6 key (RFC 9580: X25519, locked with Argon2 and AES-OCB) for the SEIPD v2 rows.
"$PARLEY" pgp keys generate --keyring keyring --profile rfc9580 --user-id v6@parley.invalid >/dev/null

# run NAME INPUT_BYTES OUTPUT CMD…: repeats the command, records median wall time and max RSS.
run() {
    local name="$1" bytes="$2" output="$3"
    shift 3
    local times=() rss=()
    for _ in $(seq "$repeats"); do
        rm -f "$output"
        /usr/bin/time -v -o timing "$@" 2>/dev/null
        times+=("$(awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, p, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + p[i]; print s }' timing)")
        rss+=("$(awk -F': ' '/Maximum resident set size/ { print $2 }' timing)")
    done
    local median max_rss
    median="$(printf '%s\n' "${times[@]}" | sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')"
    max_rss="$(printf '%s\n' "${rss[@]}" | sort -g | tail -1)"
    awk -v n="$name" -v t="$median" -v b="$bytes" -v r="$max_rss" \
        'BEGIN { printf "| %s | %.2f s | %.0f MiB/s | %.1f MiB |\n", n, t, b / 1048576 / t, r / 1024 }'
}

bytes="$(stat -c %s plain)"
echo "| operation (${size_mib} MiB, median of ${repeats}) | time | throughput | peak RSS |"
echo "|---|---|---|---|"
run "gpg -e (Cv25519, --compress-algo none)" "$bytes" g.gpg "${gpg_batch[@]}" --compress-algo none -e -r bench@parley.invalid -o g.gpg plain
# gpg leaves its output in the page cache; parley fsyncs before the file gets its name. This row is gpg
# made as durable (coreutils `sync FILE` fsyncs that file).
run "gpg -e, then sync of its output (durable, as parley)" "$bytes" g.gpg sh -c 'gpg --batch --yes -q --compress-algo none -e -r bench@parley.invalid -o g.gpg plain && sync g.gpg'
run "parley pgp encrypt (Cv25519)" "$bytes" p.gpg "$PARLEY" pgp encrypt --keyring keyring -r bench@parley.invalid -o p.gpg plain
run "gpg -d (gpg's message)" "$bytes" g.out "${gpg_batch[@]}" -d -o g.out g.gpg
cmp plain g.out
run "parley pgp decrypt (gpg's message)" "$bytes" pg.out "$PARLEY" pgp decrypt --keyring keyring -o pg.out g.gpg
cmp plain pg.out
run "gpg -d (Parley's message)" "$bytes" gp.out "${gpg_batch[@]}" -d -o gp.out p.gpg
cmp plain gp.out
run "parley pgp decrypt (Parley's message)" "$bytes" pp.out "$PARLEY" pgp decrypt --keyring keyring -o pp.out p.gpg
cmp plain pp.out
run "parley pgp encrypt (v6 X25519, SEIPD v2 AES-256-OCB)" "$bytes" p6.gpg "$PARLEY" pgp encrypt --keyring keyring -r v6@parley.invalid -o p6.gpg plain
run "parley pgp decrypt (v6, OCB; includes the key's Argon2 unlock)" "$bytes" p6.out "$PARLEY" pgp decrypt --keyring keyring -o p6.out p6.gpg
cmp plain p6.out
echo "all outputs matched the input" >&2
