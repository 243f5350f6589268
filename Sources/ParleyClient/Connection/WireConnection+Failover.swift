import NIOCore
import ParleyWire

extension WireConnection {
    /// Connects to the first node of `address` that answers, trying them in turn from node `first`;
    /// returns the connection and the index of the node that answered.
    ///
    /// Only an unreachable node is skipped: a TLS or pin failure is an answer (and a warning), not an
    /// absence, so it ends the attempt at once.
    static func connect(
        toAnyNodeOf address: ServerAddress, startingAt first: Int = 0, group: any EventLoopGroup,
        onNotification: @escaping NotificationSink = { _, _, _ in true },
        onClose: @escaping @Sendable () -> Void = {}
    ) async throws(ClientError) -> (WireConnection, node: Int) {
        let count = address.endpoints.count
        var failure = ClientError.unreachable("\(address): no node answered")
        for step in 0..<count {
            let index = (first + step) % count
            do {
                let connection = try await connect(to: address.node(index), group: group, onNotification: onNotification, onClose: onClose)
                return (connection, index)
            } catch .unreachable(let why) {
                failure = .unreachable(why)
            }
        }
        throw failure
    }
}
