import Foundation
import ParleyLocation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Berry Picker Tracker's HTTP API as the app uses it (docs/CLIENT.md §11): ids travel in the
/// `user-id` and `route-id` headers, bodies are JSON. Errors say what happened in the user's words.
public struct BPTClient: Sendable {
    /// The server's base URL.
    public let base: URL
    /// Seconds a whole exchange may take.
    public var timeout: Double = 30

    /// `--bpt-server` checked: an http(s) URL.
    public init(server: String, timeout: Double = 30) throws {
        guard let base = URL(string: server), base.scheme == "http" || base.scheme == "https", base.host != nil else {
            throw LocationFeedError("--bpt-server must be an http:// or https:// URL")
        }
        self.base = base
        self.timeout = timeout
    }

    /// `GET /get-users-latest-route` with header `user-id`.
    public func latestRoute(userID: String) async throws -> BPTRoute {
        let response = try await send("GET", "get-users-latest-route", headers: ["user-id": userID], limit: BPTRoute.maxResponseSize)
        guard response.status == 200 else {
            throw response.status == 404
                ? LocationFeedError("the tracker server knows no route of this user (HTTP 404): check the link, or ask them to start tracking")
                : failure(response.status, doing: "reading the route")
        }
        do {
            return try BPTRoute(json: response.body)
        } catch {
            throw LocationFeedError("the tracker server's answer is not a route: \(error)")
        }
    }

    /// `POST /new-user` with `{}`: the id the server gives a new user.
    public func createUser() async throws -> String {
        let response = try await send("POST", "new-user", body: BPTRequestBody.newUser, limit: BPTCreatedID.maxResponseSize)
        guard response.status == 200 else { throw failure(response.status, doing: "making a tracker user") }
        return try createdID(response.body, what: "a new user")
    }

    /// `POST /start-route` with `{"active":true,"user_id":…}`: the new route's id.
    public func startRoute(userID: String) async throws -> String {
        let response = try await send("POST", "start-route", body: BPTRequestBody.startRoute(userID: userID), limit: BPTCreatedID.maxResponseSize)
        guard response.status == 200 else {
            throw response.status == 404
                ? LocationFeedError("the tracker server no longer knows your tracker user (deleted there?); make a new one with 'parley location bpt-key rotate'")
                : failure(response.status, doing: "starting a route")
        }
        return try createdID(response.body, what: "a new route")
    }

    /// `POST /create-waypoint` with a body from ``BPTRequestBody/waypoints(_:routeID:)``; the server answers
    /// with the `count` waypoints it stored, which is the only sign they were.
    public func postWaypoints(_ body: Data, count: Int) async throws {
        let response = try await send("POST", "create-waypoint", body: body, limit: BPTRoute.maxResponseSize)
        guard response.status == 200 else { throw failure(response.status, doing: "storing the positions") }
        guard let stored = try? JSONSerialization.jsonObject(with: response.body) as? [Any], stored.count == count else {
            throw notTracker("storing the positions")
        }
    }

    /// `PATCH /deactivate-route` with header `route-id`: the route is ended, as when the app stops tracking.
    public func deactivateRoute(_ routeID: String) async throws {
        let response = try await send("PATCH", "deactivate-route", headers: ["route-id": routeID], limit: BPTCreatedID.maxResponseSize)
        guard response.status == 200 else { throw failure(response.status, doing: "ending the route") }
        guard Self.isJSON(response.body) else { throw notTracker("ending the route") }
    }

    /// `DELETE /delete-user` with header `user-id`: the user and its routes are gone from the server.
    public func deleteUser(_ userID: String) async throws {
        let response = try await send("DELETE", "delete-user", headers: ["user-id": userID], limit: BPTCreatedID.maxResponseSize)
        guard response.status == 200 else { throw failure(response.status, doing: "deleting the tracker user") }
        // The server answers with how many users it deleted (0 when it no longer knew this one: gone either way).
        guard Self.isJSON(response.body) else { throw notTracker("deleting the tracker user") }
    }

    private func send(_ method: String, _ path: String, headers: [String: String] = [:], body: Data? = nil,
                      limit: Int) async throws -> BPTHTTP.Response {
        var request = URLRequest(url: base.appendingPathComponent(path))
        request.httpMethod = method
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        if let body {
            request.httpBody = body
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        do {
            return try await BPTHTTP.exchange(request, limit: limit, timeout: timeout)
        } catch BPTHTTP.Failure.timedOut(let seconds) {
            throw LocationFeedError("the tracker server at \(base.absoluteString) did not answer within \(JSNumber.string(seconds)) s; try again later")
        } catch BPTHTTP.Failure.tooLarge(let limit) {
            throw LocationFeedError("the tracker server at \(base.absoluteString) sent an answer larger than \(limit >= 1 << 20 ? "\(limit >> 20) MiB" : "\(limit >> 10) KiB"); it is not a Berry Picker Tracker server, or it is broken")
        } catch BPTHTTP.Failure.unreachable(let why) {
            throw LocationFeedError("cannot reach the tracker server at \(base.absoluteString) (\(why)); check --bpt-server and your network")
        }
    }

    private func createdID(_ body: Data, what: String) throws -> String {
        do {
            return try BPTCreatedID.parse(json: body)
        } catch {
            throw LocationFeedError("the tracker server's answer for \(what) is not what a Berry Picker Tracker server sends (\(error)); check --bpt-server")
        }
    }

    private static func isJSON(_ body: Data) -> Bool {
        (try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed])) != nil
    }

    private func notTracker(_ what: String) -> LocationFeedError {
        LocationFeedError("the tracker server's answer to \(what) is not what a Berry Picker Tracker server sends, so it may not have happened; check --bpt-server")
    }

    private func failure(_ status: Int, doing what: String) -> LocationFeedError {
        switch status {
        case 500...599: LocationFeedError("the tracker server failed while \(what) (HTTP \(status)); nothing was changed here, try again later")
        default: LocationFeedError("the tracker server refused \(what) (HTTP \(status)); check --bpt-server")
        }
    }
}
