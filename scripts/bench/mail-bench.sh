#!/usr/bin/env bash
# `parley mail sync` beside mbsync (isync) on the same mailbox (docs/PERFORMANCE.md, "Mail sync"): a throwaway
# Dovecot over TLS on loopback holding COUNT messages (default 10000; a mix of plain and OpenPGP-armored bodies,
# 1–100 KiB), each client syncing it from nothing into its own empty store, ROUNDS rounds (default 3), the two
# interleaved. Prints the median and range of wall time and peak RSS of each, with the load average.
#
#   scripts/bench/mail-bench.sh [PARLEY-BINARY] [COUNT] [ROUNDS]
#
# Needs dovecot-imapd (scripts/test installs it) and isync (installed here if missing). Run it on a quiet machine.
set -euo pipefail
parley="$(realpath "${1:-.build/release/parley}")"
count="${2:-10000}"
rounds="${3:-3}"
dpkg-query -W -f='${Status}' isync 2>/dev/null | grep -q "install ok installed" || {
    sudo=""; [[ "$(id -u)" == 0 ]] || sudo="sudo"
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends isync >/dev/null
}
# One message in ten comes from Bob with his Autocrypt header (the one Sequoia wrote for the tests), so a sync
# also does Level 1's learning: parse the header, check the key, update the sealed peer state.
autocrypt="$(awk -F'\t' '$1 == "valid" { print $3; exit }' "$(dirname "$0")/../../Tests/ParleyMailTests/Vectors/autocrypt-headers.txt")"
work="$(mktemp -d)"
chmod 711 "$work"
dovecot_pid=""
cleanup() { [[ -n "$dovecot_pid" ]] && { kill -9 "$dovecot_pid"; wait "$dovecot_pid"; } 2>/dev/null; pkill -9 -f "$work/dovecot.conf" 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
cd "$work"

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'; }
port=$(free_port)
if [[ "$(id -u)" == 0 ]]; then user=dovecot; run=(setpriv --reuid=dovecot --regid=dovecot --clear-groups); else user=$(id -un); run=(); fi
mkdir -p run state mail
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 1 -subj /CN=127.0.0.1 \
    -addext subjectAltName=IP:127.0.0.1 -keyout key.pem -out cert.pem 2>/dev/null
echo "ann@example.org:{PLAIN}bench::::::" > users
cat > dovecot.conf <<EOF
base_dir = $work/run
state_dir = $work/state
instance_name = parley-mail-bench-$port
log_path = $work/state/dovecot.log
protocols = imap
listen = 127.0.0.1
default_login_user = $user
default_internal_user = $user
default_internal_group = $user
first_valid_uid = 1
ssl = yes
ssl_cert = <$work/cert.pem
ssl_key = <$work/key.pem
passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%u $work/users
}
userdb {
  driver = static
  args = uid=$user gid=$user home=$work/mail/%u
}
mail_location = maildir:$work/mail/%u/Maildir
service imap-login {
  chroot =
  inet_listener imap {
    port = 0
  }
  inet_listener imaps {
    port = $port
    ssl = yes
  }
}
service anvil {
  chroot =
}
EOF

# The mailbox: maildir files written directly (Dovecot indexes them on first access), a fixed seed.
python3 - "$work/mail/ann@example.org/Maildir" "$count" "$autocrypt" <<'EOF'
import base64, os, random, sys
root, count, autocrypt = sys.argv[1], int(sys.argv[2]), sys.argv[3]
for sub in ("cur", "new", "tmp"):
    os.makedirs(os.path.join(root, sub), exist_ok=True)
rng = random.Random(14)
for i in range(count):
    size = rng.randint(1024, 100 * 1024)
    if i % 2:
        blob = base64.encodebytes(rng.randbytes(size * 3 // 4)).decode()
        body = "-----BEGIN PGP MESSAGE-----\n\n" + blob + "-----END PGP MESSAGE-----\n"
    else:
        words = ["plan", "meeting", "report", "lunch", "draft", "budget", "notes", "friday"]
        body = ""
        while len(body) < size:
            body += " ".join(rng.choice(words) for _ in range(12)) + "\n"
    sender = f"From: Bob <bob@example.org>\nAutocrypt: {autocrypt}\n" if i % 10 == 0 else f"From: Sender {i % 97} <s{i % 97}@example.org>\n"
    message = (f"{sender}To: ann@example.org\nSubject: message {i}\n"
               f"Date: Thu, 26 Nov 2026 09:00:00 +0000\nMessage-ID: <{i}@bench.invalid>\n\n{body}")
    with open(os.path.join(root, "cur", f"1700000000.M{i}P1.bench,S={len(message)}:2,"), "w") as out:
        out.write(message)
EOF
[[ "$(id -u)" == 0 ]] && chown -R dovecot:dovecot "$work/run" "$work/state" "$work/mail" "$work/users" cert.pem key.pem
"${run[@]}" /usr/sbin/dovecot -F -c "$work/dovecot.conf" &
dovecot_pid=$!
for _ in $(seq 100); do (echo > /dev/tcp/127.0.0.1/$port) 2>/dev/null && break; sleep 0.1; done
(echo > /dev/tcp/127.0.0.1/$port) 2>/dev/null || { echo "Dovecot did not start:"; cat "$work/state/dovecot.log" 2>/dev/null; exit 1; }
# Dovecot builds its index once, before either client is timed.
python3 - "$port" <<'EOF'
import imaplib, ssl, sys
m = imaplib.IMAP4_SSL("127.0.0.1", int(sys.argv[1]), ssl_context=ssl._create_unverified_context())
m.login("ann@example.org", "bench"); print("mailbox:", m.select("INBOX")[1][0].decode(), "messages"); m.logout()
EOF
du -sh "$work/mail" | awk '{print "maildir:", $1}'

cat > mbsyncrc <<EOF
IMAPAccount bench
Host 127.0.0.1
Port $port
User ann@example.org
Pass bench
SSLType IMAPS
CertificateFile $work/cert.pem

IMAPStore remote
Account bench

MaildirStore local
Path $work/mbsync/
Inbox $work/mbsync/INBOX

Channel bench
Far :remote:
Near :local:
Patterns *
Create Near
Sync Pull
SyncState *
EOF

measure() { /usr/bin/time -f "%e %M" -o "$1" "${@:2}" > /dev/null 2>&1; }
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
: > parley.times; : > mbsync.times
for round in $(seq "$rounds"); do
    rm -rf home; PARLEY_MAIL_PASSWORD=bench "$parley" mail account add --home home --email ann@example.org \
        --imap "127.0.0.1:$port" --ca "$work/cert.pem" > /dev/null
    measure t "$parley" mail sync --home home --quiet; cat t >> parley.times
    rm -rf mbsync; mkdir mbsync
    measure t mbsync -c mbsyncrc -a; cat t >> mbsync.times
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
"$parley" mail list --home home --folders
find mbsync -type f -path '*/cur/*' -o -type f -path '*/new/*' | wc -l | awk '{print "mbsync stored:", $1, "messages"}'
report() {
    python3 - "$1" "$2" <<'PY'
import statistics, sys
rows = [line.split() for line in open(sys.argv[2]) if line.strip()]
wall = sorted(float(r[0]) for r in rows); rss = sorted(int(r[1]) / 1024 for r in rows)
print(f"{sys.argv[1]:<12} wall median {statistics.median(wall):.2f} s ({wall[0]:.2f}-{wall[-1]:.2f}), "
      f"peak RSS median {statistics.median(rss):.0f} MiB ({rss[0]:.0f}-{rss[-1]:.0f}), {len(rows)} runs")
PY
}
report "parley mail" parley.times
report "mbsync" mbsync.times
