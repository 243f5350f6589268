import ParleyWire

/// Takes the events a node raises to the other nodes.
public protocol ClusterRelay: AnyObject, Sendable {
    /// Sends `event` to the other nodes (queued; never blocks).
    func relay(_ event: ClusterEvent)
}
