import Logging
import ParleyCrypto
import ServiceLifecycle

/// Deletes what the retention policy no longer keeps: once at start, then every `interval`, until the
/// server shuts down (docs/OPERATIONS.md §5).
///
/// Sweeping only deletes, in short transactions, so every node of a multi-node deployment may run one: they
/// skip each other's rows and a row already gone is no error.
public final class RetentionSweeper: Service, Sendable {
    let store: any Store
    let clock: any WallClock
    let policy: RetentionPolicy
    let interval: Duration
    let logger: Logger

    /// A sweeper over `store`, reading the time from `clock`.
    public init(store: any Store, clock: any WallClock, policy: RetentionPolicy, interval: Duration, logger: Logger) {
        self.store = store
        self.clock = clock
        self.policy = policy
        self.interval = interval
        self.logger = logger
    }

    /// The sweeper a server context describes (`retention`, `retentionSweepInterval` of its configuration).
    public convenience init(context: ServerContext) {
        self.init(
            store: context.store, clock: context.clock, policy: context.configuration.retention,
            interval: context.configuration.retentionSweepInterval, logger: context.logger)
    }

    public func run() async throws {
        // Graceful shutdown cancels the wait (or the sweep in progress: each batch is its own transaction, so
        // stopping between or inside batches leaves nothing half-done).
        await cancelWhenGracefulShutdown { [self] in
            while !Task.isCancelled {
                await sweepOnce()
                do {
                    try await Task.sleep(for: interval)
                } catch {
                    return
                }
            }
        }
        logger.debug("retention sweeper stopped")
    }

    /// Runs one sweep now; logs and counts what went (never what it was), or logs why it failed and returns nil.
    @discardableResult
    public func sweepOnce() async -> SweepReport? {
        let started = ContinuousClock.now
        do {
            let report = try await store.sweepExpired(now: clock.now(), policy: policy)
            ServerMetrics.swept(report, duration: ContinuousClock.now - started)
            if report.total > 0 {
                var metadata: Logger.Metadata = [:]
                for (kind, count) in report.counts where count > 0 { metadata[kind] = "\(count)" }
                logger.info("retention sweep deleted \(report.total) rows", metadata: metadata)
            }
            return report
        } catch {
            // A shutdown interrupting the sweep is not a failure.
            guard !Task.isCancelled else { return nil }
            ServerMetrics.sweepFailed()
            // StoreError descriptions carry no SQL, values or contents (Store/StoreError.swift).
            logger.error("retention sweep failed; the next one tries again", metadata: ["error": "\(error)"])
            return nil
        }
    }
}
