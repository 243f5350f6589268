import ParleyLocation

extension GPSDConnection {
    /// Calls `body` with each new fix until `count` fixes were handled or gpsd closes the connection.
    public func forEachNewFix(count: Int?, _ body: (Waypoint) async throws -> Void) async throws {
        try await GPSDFixes.forEach(count: count, next: { try await self.nextFix() }, body)
    }
}

/// gpsd's fixes as a route wants them: gpsd may repeat a fix, and a route stores one waypoint per timestamp.
public enum GPSDFixes {
    /// Calls `body` with each fix from `next` whose timestamp differs from the one before, until `count` fixes
    /// were handled or `next` returns nil.
    public static func forEach(count: Int?, next: () async throws -> Waypoint?, _ body: (Waypoint) async throws -> Void) async throws {
        var handled = 0
        var lastTimestamp: Int64 = -1
        while count.map({ handled < $0 }) ?? true, let waypoint = try await next() {
            guard waypoint.timestamp != lastTimestamp else { continue }
            lastTimestamp = waypoint.timestamp
            try await body(waypoint)
            handled += 1
        }
    }
}
