import Metrics

/// What the server counts and times, through swift-metrics (docs/OPERATIONS.md, "Metrics").
///
/// Without `--metrics` nothing is bootstrapped and these go to swift-metrics' no-op handlers. Labels carry only
/// method names the router knows and error codes: never an e-mail, id, key or anything a client chose freely,
/// so neither secrets nor unbounded label sets can reach the metrics.
enum ServerMetrics {
    /// A connection was accepted.
    static func connectionOpened() { Meter(label: "parley_connections").increment() }

    /// A connection ended.
    static func connectionClosed() { Meter(label: "parley_connections").decrement() }

    /// Something a client asked for was refused to protect the server (a connection, a pairing, an unfinished
    /// line, a login deadline): `reason` is one of a fixed set of names, never anything the client chose.
    static func refused(_ reason: String) {
        Counter(label: "parley_refusals_total", dimensions: [("reason", reason)]).increment()
    }

    /// One request answered: counted by method, timed, and its error code counted when it failed.
    static func request(method: String, duration: Duration, errorCode: String?) {
        Counter(label: "parley_requests_total", dimensions: [("method", method)]).increment()
        Timer(label: "parley_request_duration_seconds", dimensions: [("method", method)]).record(duration: duration)
        if let errorCode {
            Counter(label: "parley_request_errors_total", dimensions: [("method", method), ("code", errorCode)]).increment()
        }
    }

    /// Devices confirmed `count` messages delivered.
    static func delivered(_ count: Int) {
        Counter(label: "parley_messages_delivered_total").increment(by: count)
    }

    /// One store (database) call took `duration`.
    static func store(_ duration: Duration) {
        Timer(label: "parley_store_duration_seconds").record(duration: duration)
    }

    /// One group commit of `writes` writes took `duration` (SQLite: its disk flush included; PostgreSQL: a transaction of
    /// sends and confirmations, `PostgresGroupCommit`).
    static func groupCommit(writes: Int, duration: Duration) {
        Timer(label: "parley_group_commit_seconds").record(duration: duration)
        Recorder(label: "parley_group_commit_writes").record(writes)
    }

    /// A notification was queued for a connection (`dropped`: its queue was full and it was disconnected).
    static func notification(dropped: Bool) {
        Counter(label: dropped ? "parley_notifications_dropped_total" : "parley_notifications_total").increment()
    }

    /// How long a notification waited between being raised and being written to its connection.
    static func notificationLag(_ duration: Duration) {
        Timer(label: "parley_notification_lag_seconds").record(duration: duration)
    }

    /// Cluster events sent to the other nodes in `notifies` NOTIFYs (`dropped`: too large, over the queue limit, or not sent).
    static func clusterPublished(sent: Int, notifies: Int, dropped: Int) {
        Counter(label: "parley_cluster_events_sent_total").increment(by: sent)
        Counter(label: "parley_cluster_notifies_total").increment(by: notifies)
        if dropped > 0 { Counter(label: "parley_cluster_events_dropped_total").increment(by: dropped) }
    }

    /// Cluster events received from other nodes.
    static func clusterReceived(events: Int) {
        Counter(label: "parley_cluster_events_received_total").increment(by: events)
    }
}
