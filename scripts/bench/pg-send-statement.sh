#!/usr/bin/env bash
# The database's own cost of one send on PostgreSQL, without the server: pgbench runs the statement a send runs
# (`PostgresStatements.StoreMessage`, read from its Swift source so it is always the current one) with the
# parameters of a 1:1 message of 256 bytes, alone and N to a transaction (what grouping sends into one commit
# would save), and prints PostgreSQL's CPU per message (its backends, reaped ones included, and its helpers).
#
# Usage: scripts/bench/pg-send-statement.sh [SECONDS] [ROUNDS]      (defaults 10 and 3, interleaved)
# BATCH=N (default 10) sends per transaction in the grouped runs; CLIENTS="1 8" the pgbench clients of the single
# runs; PLANS="auto force_generic_plan" runs each line under each `plan_cache_mode` (default: auto, PostgreSQL's own
# choice), interleaved. Grouped runs use one client: random conversations locked inside one transaction would deadlock between
# clients (a real grouping would lock every clock row of the batch in id order first).
# Needs the Debian package postgresql (installed here if missing) and python3; a throwaway cluster runs as the
# `postgres` user on a unix socket in a temporary directory and is removed at the end. Set PARLEY to use a built
# binary (it only creates the schema) instead of building one.
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds="${1:-10}"
rounds="${2:-3}"
batch="${BATCH:-10}"
clients="${CLIENTS:-1 8}"
plans="${PLANS:-auto}"

dpkg-query -W -f='${Status}' postgresql 2>/dev/null | grep -q "install ok installed" || {
    apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
}
if [[ -z "${PARLEY:-}" ]]; then
    swift build -c release --product parley >&2
    PARLEY="$PWD/.build/release/parley"
fi
pg_bin="$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)"
work="$(mktemp -d "${TMPDIR:-/var/tmp}/parley-pg-send.XXXXXX")"
chmod 755 "$work"
server_pid=""
cleanup() {
    [[ -n "$server_pid" ]] && kill -TERM "$server_pid" 2>/dev/null || true
    [[ -d "$work/pg" ]] && su postgres -s /bin/sh -c "'$pg_bin/pg_ctl' -D '$work/pg' -m immediate stop" >/dev/null 2>&1 || true
    rm -rf "$work"
}
trap cleanup EXIT

# The same server settings as cluster-bench.sh: durable (fsync, synchronous_commit on).
mkdir "$work/pg" "$work/socket" && chown postgres "$work/pg" "$work/socket"
su postgres -s /bin/sh -c "'$pg_bin/initdb' -D '$work/pg' -A trust -U postgres" >/dev/null
su postgres -s /bin/sh -c "'$pg_bin/pg_ctl' -D '$work/pg' -l '$work/pg/server.log' -w \
    -o \"-k '$work/socket' -c listen_addresses='' -c max_connections=200 -c shared_buffers=256MB\" start" >/dev/null
su postgres -s /bin/sh -c "'$pg_bin/createdb' -h '$work/socket' parley"
psql=("$pg_bin/psql" -h "$work/socket" -U postgres -d parley -q -v ON_ERROR_STOP=1)

# The schema, made by the server's own migrations: start a node until it listens, then stop it.
"$PARLEY" server --dev --listen 127.0.0.1:0 --data "$work/node" --database "postgres:///parley?host=$work/socket&user=postgres" \
    > "$work/node.out" 2>&1 &
server_pid=$!
for _ in $(seq 1 200); do grep -q "listening on" "$work/node.out" 2>/dev/null && break; sleep 0.1; done
grep -q "listening on" "$work/node.out" || { cat "$work/node.out" >&2; echo "the server did not start" >&2; exit 1; }
kill -TERM "$server_pid"; wait "$server_pid" 2>/dev/null || true; server_pid=""

# 200 accounts with a device each, 100 direct conversations (account i with i + 100), every clock row.
"${psql[@]}" <<'SQL'
INSERT INTO accounts (id, email, display_name, identity_key, auth_key, active, created_at)
    SELECT i, 'u' || i || '@example.org', 'U' || i, '\x00', '\x00', true, 0 FROM generate_series(1, 200) i;
INSERT INTO devices (account_id, device_id, name, created_at, last_seen) SELECT i, 1, 'd', 0, 0 FROM generate_series(1, 200) i;
INSERT INTO conversations (id, kind, creator_id, direct_key, created_at)
    SELECT i, 'direct', i, i || ':' || (i + 100), 0 FROM generate_series(1, 100) i;
INSERT INTO members (conversation_id, account_id, status, joined_at)
    SELECT i, i, 'active', 0 FROM generate_series(1, 100) i UNION ALL SELECT i, i + 100, 'active', 0 FROM generate_series(1, 100) i;
INSERT INTO account_clocks (account_id, last) SELECT i, 0 FROM generate_series(1, 200) i ON CONFLICT DO NOTHING;
SQL

# pgbench scripts: the statement with its parameters as pgbench variables (prepared, so they stay parameters).
python3 - "$work" "$batch" <<'PY'
import re, sys
work, batch = sys.argv[1], int(sys.argv[2])
source = open("Sources/ParleyServer/Store/Postgres/PostgresStatements+Messages.swift").read()
start = source.index('static let sql = """', source.index("struct StoreMessage")) + len('static let sql = """')
sql = source[start:source.index('"""', start)]
sql = "\n".join(line.strip() for line in sql.strip().splitlines() if not line.strip().startswith("--"))
values = {
    1: "ARRAY[:a, :b]::BIGINT[]", 2: ":a", 3: "(:r::text)", 4: "0", 5: ":c", 6: "1", 7: "'text'", 8: "NULL::BIGINT",
    9: "false", 10: "ARRAY[:b]::BIGINT[]", 11: "ARRAY[1]::BIGINT[]", 12: "ARRAY[decode(repeat('ab', 256), 'hex')]::BYTEA[]",
    13: "true", 14: "1073741824::BIGINT",
}
sql = re.sub(r"\$(\d+)", lambda m: values[int(m.group(1))], sql)
one = "\\set c random(1, 100)\n\\set a :c\n\\set b :c + 100\n\\set r random(1, 2000000000)\n" + sql + ";\n"
open(f"{work}/one.sql", "w").write(one)
open(f"{work}/batch.sql", "w").write("BEGIN;\n" + one * batch + "COMMIT;\n")
PY

pm="$(head -1 "$work/pg/postmaster.pid")"
# PostgreSQL's CPU so far, in clock ticks: every live process of the cluster, and what the postmaster reaped.
cpu() {
    local total=0 fields
    for pid in $(pgrep -u postgres); do
        fields=($(sed 's/.*) //' "/proc/$pid/stat" 2>/dev/null)) || continue
        total=$((total + ${fields[11]:-0} + ${fields[12]:-0}))
    done
    fields=($(sed 's/.*) //' "/proc/$pm/stat"))
    echo $((total + ${fields[13]} + ${fields[14]}))
}
ticks="$(getconf CLK_TCK)"
# run SCRIPT CLIENTS PER_TRANSACTION PLAN_MODE: one line of the table.
run() {
    local before after out transactions load
    load="$(cut -d' ' -f1-3 /proc/loadavg)"
    before="$(cpu)"
    out="$(PGOPTIONS="-c plan_cache_mode=$4" "$pg_bin/pgbench" -h "$work/socket" -U postgres -n -M prepared -c "$2" -j 2 \
        -T "$seconds" -f "$work/$1" parley 2>&1)"
    sleep 0.5
    after="$(cpu)"
    transactions="$(echo "$out" | awk '/number of transactions actually processed/ {print $NF}' | cut -d/ -f1)"
    python3 -c "print(f'| $1 | $4 | $2 | $3 | {int($transactions) * $3 / $seconds:,.0f} | {($after - $before) * 1000 / $ticks / (int($transactions) * $3):.3f} | $load |')"
}
echo "| script | plan_cache_mode | clients | sends per transaction | sends/s | PostgreSQL CPU ms per send | load before |"
echo "|---|---|---:|---:|---:|---:|---|"
for round in $(seq 1 "$rounds"); do
    for plan in $plans; do
        for n in $clients; do run one.sql "$n" 1 "$plan"; done
        run batch.sql 1 "$batch" "$plan"
    done
done
