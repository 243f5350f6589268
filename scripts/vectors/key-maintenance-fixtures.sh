#!/usr/bin/env bash
# Regenerates Tests/ParleyPGPTests/Vectors/keys/: what GnuPG writes when it certifies, revokes a
# certification, adds a user ID and a subkey, and makes expiring and SHA-1 self-signed keys, so the
# key-maintenance code (merge, certify/validate, update-key) is checked against a peer's output and
# not only its own. Uses the keys in Vectors/gpg (pass phrase "correct horse battery staple").
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
in="$root/Tests/ParleyPGPTests/Vectors/gpg"
out="$root/Tests/ParleyPGPTests/Vectors/keys"
mkdir -p "$out"
export GNUPGHOME="$(mktemp -d)"
trap 'gpgconf --kill all >/dev/null 2>&1 || true; rm -rf "$GNUPGHOME"' EXIT
pass="correct horse battery staple"
gpg=(gpg --batch --yes --pinentry-mode loopback --passphrase "$pass")
rsa=$(cat "$in/rsa.fpr"); ed=$(cat "$in/ed.fpr")

"${gpg[@]}" --import "$in/rsa.sec.asc" "$in/ed.sec.asc"
# Alice (RSA) certifies Bob's user ID; then revokes that certification.
"${gpg[@]}" -u "$rsa" --quick-sign-key "$ed" "Bob Ed25519 <bob@example.org>"
"${gpg[@]}" --armor --export "$ed" > "$out/ed.certified-by-rsa.pub.asc"
"${gpg[@]}" -u "$rsa" --quick-revoke-sig "$ed" "$rsa"
"${gpg[@]}" --armor --export "$ed" > "$out/ed.certification-revoked.pub.asc"

# Bob's certificate as another copy of it would carry: one more user ID and one more subkey.
GNUPGHOME2="$(mktemp -d)"
gpg2=(gpg --homedir "$GNUPGHOME2" --batch --yes --pinentry-mode loopback --passphrase "$pass")
"${gpg2[@]}" --import "$in/ed.sec.asc"
"${gpg2[@]}" --quick-add-uid "$ed" "Bob at work <bob@work.example>"
"${gpg2[@]}" --quick-add-key "$ed" ed25519 sign never
"${gpg2[@]}" --armor --export "$ed" > "$out/ed.extra.pub.asc"
gpgconf --homedir "$GNUPGHOME2" --kill all; rm -rf "$GNUPGHOME2"

# A key whose primary and subkey expire 30 days after creation, and one self-signed with SHA-1.
"${gpg[@]}" --quick-gen-key "Expiring <expiring@example.org>" ed25519 cert,sign 30d
exp=$(gpg --list-keys --with-colons expiring@example.org | awk -F: '/^fpr/ {print $10; exit}')
"${gpg[@]}" --quick-add-key "$exp" cv25519 encr 30d
"${gpg[@]}" --armor --export-secret-keys "$exp" > "$out/expiring.sec.asc"
"${gpg[@]}" --cert-digest-algo SHA1 --quick-gen-key "Old Hash <sha1@example.org>" ed25519 cert,sign never
old=$(gpg --list-keys --with-colons sha1@example.org | awk -F: '/^fpr/ {print $10; exit}')
"${gpg[@]}" --cert-digest-algo SHA1 --quick-add-key "$old" cv25519 encr never
"${gpg[@]}" --armor --export-secret-keys "$old" > "$out/sha1.sec.asc"
