extension ParleyClient {
    /// Every OpenPGP key kept in this account's vault: its fingerprint (upper-case hex) and its bytes, sorted by
    /// fingerprint (`PGPKeyVault`).
    public nonisolated func pgpKeys() throws(ClientError) -> [(fingerprint: String, bytes: [UInt8])] {
        try pgpVault.all()
    }

    /// Keeps `bytes` in the vault as the OpenPGP key `fingerprint`, replacing what was stored under it.
    public nonisolated func storePGPKey(fingerprint: String, bytes: [UInt8]) throws(ClientError) {
        try pgpVault.store(fingerprint: fingerprint, bytes: bytes)
    }
}
