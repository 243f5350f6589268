#!/usr/bin/env bash
# A file through a default server, as a person sends one: `parley send --file` and `parley download` against
# `parley server --dev` with its default limits (so the client's pacing under the server's 50 requests a second is
# part of it), the server on core 0 and the commands on core 1. Prints seconds and peak RSS of each, and whether the
# copy is the same. docs/PERFORMANCE.md, "Files through the server".
#
# Usage: scripts/bench/transfer-bench.sh [--mib 60] [--runs 2] [BINARY...]   (default: the release build)
# Several binaries (an older build beside the current one) are interleaved within each run.
set -euo pipefail
cd "$(dirname "$0")/../.."
mib=60
runs=2
binaries=()
while (($#)); do
    case "$1" in
        --mib) mib="$2"; shift 2 ;;
        --runs) runs="$2"; shift 2 ;;
        *) binaries+=("$1"); shift ;;
    esac
done
if ((${#binaries[@]} == 0)); then
    swift build -c release --product parley >&2
    binaries=("$PWD/.build/release/parley")
fi
work="$(mktemp -d "${TMPDIR:-/var/tmp}/parley-transfer.XXXXXX")"
trap 'rm -rf "$work"' EXIT
head -c $((mib << 20)) /dev/urandom > "$work/file.bin"
export PARLEY_PASSWORD="correct horse battery staple 42"
port=7790
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); a file of $mib MiB"
printf '%-60s %12s %12s %12s %12s %s\n' binary "up s" "up RSS KiB" "down s" "down RSS KiB" "load, copy"
for ((run = 1; run <= runs; run++)); do
    for binary in "${binaries[@]}"; do
        port=$((port + 1))
        dir="$work/run-$run-$port"
        mkdir -p "$dir"
        taskset -c 0 "$binary" server --dev --data "$dir/server" --listen "127.0.0.1:$port" > "$dir/server.log" 2>&1 &
        server=$!
        for _ in $(seq 50); do (echo > "/dev/tcp/127.0.0.1/$port") 2>/dev/null && break; sleep 0.1; done
        for person in ann bob; do
            "$binary" account register --home "$dir/$person" --server "127.0.0.1:$port" --email "$person@example.org" --name "$person" > /dev/null
            code="$(grep "$person@" "$dir/server/dev-codes.log" | tail -1 | cut -d' ' -f2)"
            "$binary" account confirm --home "$dir/$person" "$code" > /dev/null
        done
        load="$(cut -d' ' -f1 /proc/loadavg)"
        /usr/bin/time -f "%e %M" -o "$dir/up" taskset -c 1 "$binary" send --home "$dir/ann" --to bob@example.org --file "$work/file.bin" x > /dev/null 2>&1
        "$binary" requests accept --home "$dir/bob" 1 > /dev/null
        /usr/bin/time -f "%e %M" -o "$dir/down" taskset -c 1 "$binary" download --home "$dir/bob" 1 -o "$dir/copy.bin" > /dev/null 2>&1
        cmp -s "$dir/copy.bin" "$work/file.bin" && same=same || same=DIFFERENT
        read -r up_s up_kib < "$dir/up"
        read -r down_s down_kib < "$dir/down"
        printf '%-60s %12s %12s %12s %12s %s\n' "$binary" "$up_s" "$up_kib" "$down_s" "$down_kib" "$load, $same"
        kill "$server"
        wait "$server" 2> /dev/null || true
    done
done
