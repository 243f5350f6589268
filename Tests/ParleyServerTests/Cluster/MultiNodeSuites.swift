import Testing

/// The suites that start several server nodes (real processes, HAProxy, PostgreSQL) run one at a time:
/// together they would load two cores enough to starve unrelated timing-sensitive tests.
@Suite("Several server nodes", .serialized)
struct MultiNodeSuites {}
