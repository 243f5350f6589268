#!/usr/bin/env bash
# Load-tests `parley server` in the three set-ups of docs/PERFORMANCE.md and docs/SCALING.md: one node on
# SQLite, one node on PostgreSQL, and three nodes on one PostgreSQL. Each set-up gets fresh data and
# `parley bench server` with the same flags; the nodes' memory is read from /proc (--server-pid).
#
# Usage: scripts/bench/cluster-bench.sh [BENCH FLAGS…]
#   e.g. scripts/bench/cluster-bench.sh --connections 1000 --rate 2000 --duration 10 --warmup 2
# SETUPS="postgres-1" (any of sqlite, postgres-1, postgres-3, space-separated) runs only those set-ups.
# PG_STATEMENTS=1 loads pg_stat_statements and prints, after each PostgreSQL set-up, the statements by
# database time (planning and execution) per call. PG_SETTINGS="-c name=value …" adds server settings.
# Needs the Debian package postgresql (installed here if missing); a throwaway cluster runs as the
# `postgres` user on a unix socket in a temporary directory and is removed at the end. Set PARLEY to
# use a built binary instead of building one (`swift build -c release --product parley`).
set -euo pipefail
cd "$(dirname "$0")/../.."

dpkg-query -W -f='${Status}' postgresql 2>/dev/null | grep -q "install ok installed" || {
    apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
}
if [[ -z "${PARLEY:-}" ]]; then
    swift build -c release --product parley >&2
    PARLEY="$PWD/.build/release/parley"
fi
bench_flags=("$@")
[[ ${#bench_flags[@]} -gt 0 ]] || bench_flags=(--connections 200 --rate 1000 --duration 8 --warmup 2)

pg_bin="$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)"
work="$(mktemp -d "${TMPDIR:-/var/tmp}/parley-cluster-bench.XXXXXX")"
chmod 755 "$work"
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    [[ -d "$work/pg" ]] && su postgres -s /bin/sh -c "'$pg_bin/pg_ctl' -D '$work/pg' -m immediate stop" >/dev/null 2>&1 || true
    rm -rf "$work"
}
trap cleanup EXIT

statements_flags=""
[[ -n "${PG_STATEMENTS:-}" ]] && statements_flags="-c shared_preload_libraries=pg_stat_statements -c pg_stat_statements.track_planning=on"
# A PostgreSQL tuned like a small dedicated database server: durable (fsync, synchronous_commit on).
mkdir "$work/pg" "$work/socket" && chown postgres "$work/pg" "$work/socket"
su postgres -s /bin/sh -c "'$pg_bin/initdb' -D '$work/pg' -A trust -U postgres" >/dev/null
su postgres -s /bin/sh -c "'$pg_bin/pg_ctl' -D '$work/pg' -l '$work/pg/server.log' -w \
    -o \"-k '$work/socket' -c listen_addresses='' -c max_connections=200 -c shared_buffers=256MB $statements_flags ${PG_SETTINGS:-}\" start" >/dev/null

# start_node DATA [ARGS…]: starts a development node on a free port; sets node_pid and node_port.
start_node() {
    local data="$1"; shift
    mkdir -p "$data"
    # The benchmark registers many accounts and sends fast on purpose: no proof of work, no rate limits.
    "$PARLEY" server --dev --listen 127.0.0.1:0 --data "$data" --login-timeout 3600 --registrations-per-minute 1000000 \
        --requests-per-second 1000000 --account-requests-per-second 1000000 \
        --max-connections 1000000 --max-connections-per-address 1000000 --max-unauthenticated 1000000 \
        "$@" > "$data/stdout" 2>"$data/stderr" &
    local pid=$!
    pids+=("$pid")
    for _ in $(seq 1 100); do
        grep -q "listening on" "$data/stdout" 2>/dev/null && break
        sleep 0.1
    done
    node_pid="$pid"
    node_port="$(grep -o '127\.0\.0\.1:[0-9]*' "$data/stdout" | head -1 | cut -d: -f2)"
}

# run_setup NAME NODES DATABASE_ARGS…
run_setup() {
    local name="$1" count="$2"; shift 2
    local servers=() codes=() pid_flags=()
    for index in $(seq 1 "$count"); do
        start_node "$work/$name-$index" "$@"   # not in a subshell: pids must reach cleanup
        servers+=("127.0.0.1:$node_port"); codes+=("$work/$name-$index/dev-codes.log"); pid_flags+=(--server-pid "$node_pid")
    done
    echo "## $name: $count node(s) ${*:-(SQLite)}" >&2
    local database_flags=()
    [[ "$name" == postgres* ]] && database_flags=(--database-pid "$(head -1 "$work/pg/postmaster.pid")")
    "$PARLEY" bench server --servers "$(IFS=,; echo "${servers[*]}")" --codes "$(IFS=,; echo "${codes[*]}")" \
        "${pid_flags[@]}" "${database_flags[@]}" "${bench_flags[@]}"
    for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    pids=()
    [[ -n "${PG_STATEMENTS:-}" && "$name" == postgres* ]] && statements "$([[ $name == postgres-1 ]] && echo one || echo three)"
    true
}

# statements DB: the statements of the run by database time, per call (PG_STATEMENTS=1).
statements() {
    su postgres -s /bin/sh -c "'$pg_bin/psql' -h '$work/socket' -d '$1' -q -P pager=off" <<'SQL' >&2
SELECT calls, round((total_plan_time / NULLIF(calls, 0))::numeric, 3) AS plan_ms, round((total_exec_time / NULLIF(calls, 0))::numeric, 3) AS exec_ms,
       round(((total_plan_time + total_exec_time) / 1000)::numeric, 2) AS total_s, left(regexp_replace(query, '\s+', ' ', 'g'), 90) AS query
FROM pg_stat_statements ORDER BY total_plan_time + total_exec_time DESC LIMIT 15;
SQL
}

database() {
    su postgres -s /bin/sh -c "'$pg_bin/createdb' -h '$work/socket' $1"
    [[ -n "${PG_STATEMENTS:-}" ]] && su postgres -s /bin/sh -c "'$pg_bin/psql' -h '$work/socket' -d $1 -q -c 'CREATE EXTENSION pg_stat_statements'"
    echo "postgres:///$1?host=$work/socket&user=postgres"
}

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(free -g | awk '/Mem:/ {print $2}') GiB" >&2
echo "bench flags: ${bench_flags[*]}" >&2
setups="${SETUPS:-sqlite postgres-1 postgres-3}"
[[ " $setups " == *" sqlite "* ]] && run_setup sqlite 1
[[ " $setups " == *" postgres-1 "* ]] && run_setup postgres-1 1 --database "$(database one)"
[[ " $setups " == *" postgres-3 "* ]] && run_setup postgres-3 3 --database "$(database three)"
true
