import ParleyWire

/// `hello`: the client states the protocol version it speaks when it connects (docs/API.md §1); a mismatch is
/// refused in words that name both versions, so neither side misreads the other.
enum Hello {
    static func answer(_ request: API.Hello.Request) throws(WireError) -> API.Hello.Response {
        let version = request.protocolVersion
        guard version == Int64(WireProtocol.version) else {
            let newer = version > Int64(WireProtocol.version) ? "the client is newer: update the server" : "the client is older: update it"
            throw WireError(
                .unsupportedProtocol,
                "this server speaks Parley protocol \(WireProtocol.version) and the client protocol \(version); \(newer)")
        }
        return API.Hello.Response(protocolVersion: Int64(WireProtocol.version))
    }
}
