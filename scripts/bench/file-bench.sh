#!/usr/bin/env bash
# Benchmarks `parley file` against age and gpg on the same random file, in the same run.
# Usage: scripts/bench/file-bench.sh [SIZE_MIB] [REPEATS]     (default 1024 MiB, 3 repeats)
# Needs the Debian packages age, gnupg and time (installed here if missing); set PARLEY to use a built
# binary instead of building one (`swift build -c release --product parley`).
# Prints a Markdown table: median wall time, throughput and peak RSS (/usr/bin/time -v) per operation.
set -euo pipefail
cd "$(dirname "$0")/../.."

size_mib="${1:-1024}"
repeats="${2:-3}"

missing=()
for package in age gnupg time; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if ((${#missing[@]})); then
    apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi

if [[ -z "${PARLEY:-}" ]]; then
    swift build -c release --product parley >&2
    PARLEY="$PWD/.build/release/parley"
fi
parley="$PARLEY"

work="$(mktemp -d "${TMPDIR:-/var/tmp}/parley-bench.XXXXXX")"
trap 'rm -rf "$work"' EXIT
cd "$work"
export GNUPGHOME="$work/gnupg" PARLEY_PASSWORD="bench password"
mkdir -m 700 "$GNUPGHOME"

echo "making a ${size_mib} MiB random file and keys…" >&2
head -c "$((size_mib << 20))" /dev/urandom > plain
"$parley" file keygen --kind x25519 -o x.ecp1 --public x.pem --iterations 210000 >/dev/null
"$parley" file keygen --kind xwing -o pq.ecp1 --public pq.pem --iterations 210000 >/dev/null
age-keygen -o age.key 2>/dev/null
age_recipient="$(age-keygen -y age.key)"
gpg --batch --quiet --passphrase '' --quick-gen-key bench@parley.invalid future-default default never 2>/dev/null

# run NAME INPUT_BYTES OUTPUT CMD…: repeats the command, checks nothing else, records median time and max RSS.
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
run "parley seal (X25519)" "$bytes" p.prly "$parley" file seal -r x.pem plain -o p.prly
run "parley open (X25519, key envelope 210k PBKDF2)" "$bytes" p.out "$parley" file open -i x.ecp1 p.prly -o p.out
cmp plain p.out
run "parley seal (X-Wing)" "$bytes" pq.prly "$parley" file seal -r pq.pem plain -o pq.prly
run "parley open (X-Wing)" "$bytes" pq.out "$parley" file open -i pq.ecp1 pq.prly -o pq.out
cmp plain pq.out
run "parley seal (passphrase, scrypt 2^14 x 16 lanes, the default)" "$bytes" s.prly "$parley" file seal --passphrase plain -o s.prly
run "parley open (passphrase, scrypt 2^14 x 16 lanes)" "$bytes" s.out "$parley" file open s.prly -o s.out
cmp plain s.out
run "parley seal (passphrase, scrypt 2^18 x 1 lane, as age)" "$bytes" s1.prly "$parley" file seal --passphrase --work-factor 18 --lanes 1 plain -o s1.prly
run "parley open (passphrase, scrypt 2^18 x 1 lane)" "$bytes" s1.out "$parley" file open s1.prly -o s1.out
cmp plain s1.out
run "age -r (X25519)" "$bytes" a.age age -r "$age_recipient" -o a.age plain
run "age -d" "$bytes" a.out age -d -i age.key -o a.out a.age
cmp plain a.out
run "gpg -e (Cv25519, defaults)" "$bytes" g.gpg gpg --batch --yes -q -e -r bench@parley.invalid -o g.gpg plain
run "gpg -d" "$bytes" g.out gpg --batch --yes -q -d -o g.out g.gpg
cmp plain g.out
run "gpg --symmetric (defaults)" "$bytes" gs.gpg gpg --batch --yes -q --pinentry-mode loopback --passphrase "$PARLEY_PASSWORD" --symmetric -o gs.gpg plain
run "gpg -d (symmetric)" "$bytes" gs.out gpg --batch --yes -q --pinentry-mode loopback --passphrase "$PARLEY_PASSWORD" -d -o gs.out gs.gpg
cmp plain gs.out
echo "all outputs matched the input" >&2
