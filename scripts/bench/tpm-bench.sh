#!/usr/bin/env bash
# Keys held in a TPM beside the software paths (docs/PERFORMANCE.md, "Keys held in a TPM"), on a throwaway swtpm:
# opening a 1 MiB Parley file with each kind of P-256 key, and unlocking the vault (`parley conversations`) with
# each MainKey protection. ROUNDS rounds (default 9), every variant once per round in turn (interleaved); prints
# the median and range of each, in ms, with the load average before and after.
#
#   scripts/bench/tpm-bench.sh [PARLEY-BINARY] [ROUNDS]
#
# Needs swtpm and openssl (scripts/test installs them). Run it on a quiet machine: no build, test or fuzzer.
set -euo pipefail
parley="$(realpath "${1:-.build/debug/parley}")"
rounds="${2:-9}"
work="$(mktemp -d)"
pids=()
cleanup() { for pid in "${pids[@]}"; do { kill -9 "$pid" && wait "$pid"; } 2>/dev/null || true; done; rm -rf "$work"; }
trap cleanup EXIT
cd "$work"

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'; }
tpm_port=$(( ($(free_port) & ~1) ))
mkdir tpm
swtpm socket --tpm2 --tpmstate dir=tpm --server "type=tcp,port=$tpm_port,bindaddr=127.0.0.1" \
    --ctrl "type=tcp,port=$((tpm_port + 1)),bindaddr=127.0.0.1" --flags not-need-init,startup-clear &
pids+=($!)
export PARLEY_TPM_TCTI="swtpm:host=127.0.0.1,port=$tpm_port"
sleep 0.5

# Keys and a file sealed to each.
head -c 1048576 /dev/urandom > plain
"$parley" file keygen --hardware -o hw.phk --public hw.pem >/dev/null
PARLEY_PIN=2468 "$parley" file keygen --hardware --pin -o hwpin.phk --public hwpin.pem >/dev/null
echo "a long enough password" | "$parley" file keygen --kind p256 --iterations 210000 --password-stdin -o sw.ecp1 --public sw.pem >/dev/null
openssl ecparam -name prime256v1 -genkey -noout 2>/dev/null | openssl pkcs8 -topk8 -nocrypt -out raw.key
openssl ec -in raw.key -pubout -out raw.pem 2>/dev/null
for key in hw hwpin sw raw; do "$parley" file seal -r "$key.pem" plain -o "f.$key" >/dev/null; done

# Four accounts on a development server, one per MainKey protection.
server_port=$(free_port)
"$parley" server --dev --data server --listen "127.0.0.1:$server_port" > server.log 2>&1 &
pids+=($!)
for _ in $(seq 50); do grep -q listening server.log && break; sleep 0.1; done
export PARLEY_PASSWORD="a long enough password"
for who in none pin tpm tpmpin; do
    "$parley" account register --home "$who" --email "$who@example.org" --name "$who" --server "127.0.0.1:$server_port" >/dev/null
    code=$(grep "email=$who@example.org" server.log | grep -o 'code=[0-9]*' | tail -1 | cut -d= -f2)
    "$parley" account confirm --home "$who" "$code" >/dev/null
done
PARLEY_NEW_PIN=739146 "$parley" account set-protection --home pin pin >/dev/null
"$parley" account set-protection --home tpm hardware >/dev/null
PARLEY_NEW_PIN=5829 "$parley" account set-protection --home tpmpin hardware --pin >/dev/null
{ kill -9 "${pids[1]}" && wait "${pids[1]}"; } 2>/dev/null || true  # the vault runs read the local store only

# A variant that fails would be timed as fast: each must succeed, or the run stops.
ms() {
    local s; s=$(date +%s%N)
    "$@" >/dev/null 2>err.log || { echo "failed: $* — $(cat err.log)" >&2; exit 1; }
    echo $(( ($(date +%s%N) - s) / 1000000 ))
}
names=("file, P-256 in the TPM" "file, P-256 in the TPM, PIN" "file, P-256 software, ECP1 envelope" "file, P-256 software, PEM"
       "parley --version" "vault, none" "vault, vault PIN (scrypt)" "vault, sealed to the TPM" "vault, sealed to the TPM, TPM PIN")
declare -A samples
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
for _ in $(seq "$rounds"); do
    samples[0]+=" $(ms "$parley" file open -i hw.phk f.hw -o out --force)"
    samples[1]+=" $(PARLEY_PIN=2468 ms "$parley" file open -i hwpin.phk f.hwpin -o out --force)"
    samples[2]+=" $(ms sh -c "echo '$PARLEY_PASSWORD' | '$parley' file open --password-stdin -i sw.ecp1 f.sw -o out --force")"
    samples[3]+=" $(ms "$parley" file open -i raw.key f.raw -o out --force)"
    samples[4]+=" $(ms "$parley" --version)"
    samples[5]+=" $(ms "$parley" conversations --home none)"
    samples[6]+=" $(PARLEY_PIN=739146 ms "$parley" conversations --home pin)"
    samples[7]+=" $(ms "$parley" conversations --home tpm)"
    samples[8]+=" $(PARLEY_PIN=5829 ms "$parley" conversations --home tpmpin)"
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
for i in "${!names[@]}"; do
    sorted=($(tr ' ' '\n' <<< "${samples[$i]}" | grep . | sort -n))
    n=${#sorted[@]}
    printf '%-40s median %4d ms  range %d–%d\n' "${names[$i]}" "${sorted[$((n / 2))]}" "${sorted[0]}" "${sorted[$((n - 1))]}"
done
