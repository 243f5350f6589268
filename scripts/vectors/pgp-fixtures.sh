#!/usr/bin/env bash
# Regenerates Tests/ParleyPGPTests/Vectors/gpg/: keys and messages made once by real GnuPG, so
# ParleyPGP has known-answer tests that do not need gpg installed. (The live interop tests in
# GPGInteropTests.swift make fresh material with gpg on every run.)
set -euo pipefail
out="$(cd "$(dirname "$0")/../.." && pwd)/Tests/ParleyPGPTests/Vectors/gpg"
mkdir -p "$out"
export GNUPGHOME="$(mktemp -d)"
trap 'gpgconf --kill all >/dev/null 2>&1 || true; rm -rf "$GNUPGHOME"' EXIT
pass="correct horse battery staple"
gpg=(gpg --batch --yes --pinentry-mode loopback --passphrase "$pass")

"${gpg[@]}" --quick-gen-key "Alice RSA <alice@example.org>" rsa3072 default never
"${gpg[@]}" --quick-gen-key "Bob Ed25519 <bob@example.org>" future-default default never
rsa=$(gpg --list-keys --with-colons alice@example.org | awk -F: '/^fpr/ {print $10; exit}')
ed=$(gpg --list-keys --with-colons bob@example.org | awk -F: '/^fpr/ {print $10; exit}')
"${gpg[@]}" --quick-add-key "$rsa" rsa3072 encr never
"${gpg[@]}" --quick-add-key "$ed" cv25519 encr never 2>/dev/null || true

for who in rsa ed; do
    fpr=${!who}
    "${gpg[@]}" --armor --export "$fpr" > "$out/$who.pub.asc"
    # gpg's default secret export: usage 254, iterated+salted SHA-1, AES-128.
    "${gpg[@]}" --armor --export-secret-keys "$fpr" > "$out/$who.sec.asc"
done

printf 'Hello from GnuPG.\nSecond line.\n' > "$GNUPGHOME/plain.txt"
for who in rsa ed; do
    fpr=${!who}
    "${gpg[@]}" --trust-model always --encrypt -r "$fpr" -o "$out/$who.msg.gpg" "$GNUPGHOME/plain.txt"
    "${gpg[@]}" --trust-model always --armor --sign --encrypt -r "$fpr" -u "$fpr" -o "$out/$who.signed.msg.asc" "$GNUPGHOME/plain.txt"
    "${gpg[@]}" --armor --detach-sign -u "$fpr" -o "$out/$who.detached.sig.asc" "$GNUPGHOME/plain.txt"
    "${gpg[@]}" --sign -u "$fpr" -o "$out/$who.signed.gpg" "$GNUPGHOME/plain.txt"
done
"${gpg[@]}" --trust-model always --compress-algo zip --encrypt -r "$ed" -o "$out/ed.zip.msg.gpg" "$GNUPGHOME/plain.txt"
"${gpg[@]}" --trust-model always --compress-algo zlib --encrypt -r "$ed" -o "$out/ed.zlib.msg.gpg" "$GNUPGHOME/plain.txt"
"${gpg[@]}" --trust-model always --compress-algo none --encrypt -r "$ed" -o "$out/ed.uncompressed.msg.gpg" "$GNUPGHOME/plain.txt"
gpg --batch --yes --pinentry-mode loopback --passphrase "password only" --symmetric --cipher-algo AES256 \
    -o "$out/password.msg.gpg" "$GNUPGHOME/plain.txt"
cp "$GNUPGHOME/plain.txt" "$out/plain.txt"
echo "$rsa" > "$out/rsa.fpr"
echo "$ed" > "$out/ed.fpr"
ls -l "$out"
