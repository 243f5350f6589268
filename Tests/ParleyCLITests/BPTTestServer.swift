import ParleyTestSupport
import Foundation

/// A stand-in for Berry Picker Tracker's HTTP server (python3's http.server on a real TCP port), speaking
/// the seed app's API: `POST /new-user`, `POST /start-route`, `POST /create-waypoint`,
/// `PATCH /deactivate-route`, `DELETE /delete-user` and `GET /get-users-latest-route`, ids in the
/// `user-id` / `route-id` headers. Routes given to `init` are served as they are (tracker app users'
/// data); everything posted is kept in memory and served back the way the real server does.
/// ``setMode(_:)`` turns it hostile: garbage, HTTP 500, endless bodies, or no answer.
final class BPTTestServer: @unchecked Sendable {
    /// How the server answers every request from now on.
    enum Mode: String {
        case normal
        /// HTTP 200 with a body that is not JSON.
        case garbage
        /// HTTP 500.
        case error
        /// HTTP 200 with 40 MiB and no Content-Length (read until the connection closes).
        case huge
        /// Waits 30 s before answering.
        case slow
        /// HTTP 500 to `DELETE /delete-user`; everything else as usual.
        case refusesDeletes
    }

    private let process = Process()
    private let directory: URL
    /// Base URL of the running server.
    let url: String

    init(routes: [String: Data] = [:]) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("bpt-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for (user, body) in routes { try body.write(to: directory.appendingPathComponent("route-\(user).json")) }
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", Self.script, directory.path]
        let output = Pipe()
        process.standardOutput = output
        try ProcessLaunch.start(process)
        var line = Data()
        while !line.contains(0x0A) {
            let byte = output.fileHandleForReading.readData(ofLength: 1)
            guard !byte.isEmpty else { throw CocoaError(.fileReadUnknown) }
            line.append(byte)
        }
        url = "http://127.0.0.1:\(String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))"
    }

    /// Changes how every later request is answered.
    func setMode(_ mode: Mode) throws {
        try Data(mode.rawValue.utf8).write(to: directory.appendingPathComponent("mode"))
    }

    /// The `user-id` headers of the route requests served so far.
    func requestedUsers() -> [String] {
        requests().compactMap { line in
            line.hasPrefix("GET /get-users-latest-route ") ? String(line.dropFirst("GET /get-users-latest-route ".count).split(separator: " ").first ?? "") : nil
        }
    }

    /// Every request so far as `METHOD PATH USER-ID ROUTE-ID` (`-` for a missing header).
    func requests() -> [String] {
        let log = (try? String(contentsOf: directory.appendingPathComponent("requests.log"), encoding: .utf8)) ?? ""
        return log.split(separator: "\n").map(String.init)
    }

    /// Every waypoint stored through `POST /create-waypoint`, as posted.
    func postedWaypoints() throws -> [[String: Any]] {
        let log = (try? String(contentsOf: directory.appendingPathComponent("posted.log"), encoding: .utf8)) ?? ""
        return try log.split(separator: "\n").map { line in
            try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] ?? [:]
        }
    }

    /// The users the server knows now (made with `POST /new-user`, not deleted).
    func users() -> [String] {
        let text = (try? String(contentsOf: directory.appendingPathComponent("users.log"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map(String.init)
    }

    func stop() {
        // SIGKILL: a child started from the test runner may not act on SIGTERM, and stop must not hang.
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: directory)
    }

    private static let script = """
        import http.server, json, os, random, string, sys, threading, time
        root = sys.argv[1]
        lock = threading.Lock()
        users, routes, order = set(), {}, []
        def new_id():
            return "".join(random.choice(string.ascii_letters + string.digits) for _ in range(12))
        def mode():
            try:
                return open(os.path.join(root, "mode")).read().strip()
            except OSError:
                return "normal"
        def save_users():
            with open(os.path.join(root, "users.log"), "w") as f:
                f.write("".join(u + "\\n" for u in sorted(users)))
        class Handler(http.server.BaseHTTPRequestHandler):
            def answer(self, status, value):
                body = json.dumps(value).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
            def handle_any(self, method):
                user, route = self.headers.get("user-id"), self.headers.get("route-id")
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                with open(os.path.join(root, "requests.log"), "a") as log:
                    log.write("%s %s %s %s\\n" % (method, self.path, user or "-", route or "-"))
                m = mode()
                if m == "garbage":
                    data = b"<html>surely not JSON"
                    self.send_response(200); self.send_header("Content-Length", str(len(data))); self.end_headers()
                    self.wfile.write(data); return
                if m == "error":
                    self.answer(500, {"detail": "Internal Server Error"}); return
                if m == "huge":
                    self.send_response(200); self.end_headers()
                    try:
                        for _ in range(640):
                            self.wfile.write(b"[" * 65536)
                    except OSError:
                        pass
                    return
                if m == "slow":
                    time.sleep(30)
                    self.answer(200, {}); return
                if m == "refusesDeletes" and method == "DELETE":
                    self.answer(500, {"detail": "Internal Server Error"}); return
                path = self.path.rstrip("/")
                with lock:
                    self.route(method, path, user, route, body)
            def route(self, method, path, user, route, body):
                if method == "GET" and path == "/get-users-latest-route":
                    file = os.path.join(root, "route-" + os.path.basename(user or "") + ".json")
                    if user and os.path.exists(file):
                        data = open(file, "rb").read()
                        self.send_response(200); self.send_header("Content-Type", "application/json")
                        self.send_header("Content-Length", str(len(data))); self.end_headers(); self.wfile.write(data); return
                    mine = [r for r in order if routes[r]["user_id"] == user]
                    if not mine:
                        self.answer(404, {"detail": "User or no routes found"}); return
                    latest = routes[mine[-1]]
                    self.answer(200, [latest["id"], latest["active"], latest["waypoints"]]); return
                if method == "POST" and path == "/new-user":
                    given = json.loads(body or b"{}").get("id")
                    uid = given or new_id()
                    users.add(uid); save_users()
                    self.answer(200, {"id": uid, "username": None}); return
                if method == "POST" and path == "/start-route":
                    request = json.loads(body)
                    if request.get("user_id") not in users:
                        self.answer(404, {"detail": "User not found, can't start a route"}); return
                    rid = request.get("id") or new_id()
                    routes[rid] = {"id": rid, "user_id": request["user_id"], "active": bool(request.get("active", True)), "waypoints": []}
                    order.append(rid)
                    self.answer(200, {"id": rid, "user_id": request["user_id"], "active": routes[rid]["active"]}); return
                if method == "POST" and path == "/create-waypoint":
                    stored = []
                    for w in json.loads(body):
                        if w.get("route_id") not in routes:
                            self.answer(500, {"detail": "foreign key violation"}); return
                        row = {k: w.get(k) for k in ("route_id", "latitude", "longitude", "mnc", "ts", "connection")}
                        stored.append(row)
                    for row in stored:
                        routes[row["route_id"]]["waypoints"].append(row)
                        with open(os.path.join(root, "posted.log"), "a") as log:
                            log.write(json.dumps(row) + "\\n")
                    self.answer(200, stored); return
                if method == "PATCH" and path == "/deactivate-route":
                    if route in routes:
                        routes[route]["active"] = False
                        self.answer(200, {"id": route, "active": False}); return
                    self.answer(500, {"detail": "list index out of range"}); return
                if method == "DELETE" and path == "/delete-user":
                    deleted = 1 if user in users else 0
                    users.discard(user); save_users()
                    for r in [r for r in order if routes[r]["user_id"] == user]:
                        order.remove(r); del routes[r]
                    self.answer(200, deleted); return
                self.answer(404, {"detail": "Not Found"})
            def do_GET(self): self.handle_any("GET")
            def do_POST(self): self.handle_any("POST")
            def do_PATCH(self): self.handle_any("PATCH")
            def do_DELETE(self): self.handle_any("DELETE")
            def log_message(self, *args):
                pass
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        server.daemon_threads = True
        print(server.server_address[1], flush=True)
        server.serve_forever()
        """
}
