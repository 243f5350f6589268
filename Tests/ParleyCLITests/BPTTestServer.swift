import Foundation

/// A stand-in for Berry Picker Tracker's HTTP server: python3's http.server answering
/// `GET /get-users-latest-route` by the `user-id` header, 404 for unknown users.
final class BPTTestServer: @unchecked Sendable {
    private let process = Process()
    private let directory: URL
    /// Base URL of the running server.
    let url: String

    init(routes: [String: Data]) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("bpt-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for (user, body) in routes { try body.write(to: directory.appendingPathComponent("route-\(user).json")) }
        let script = """
            import http.server, os, sys
            root = sys.argv[1]
            class Handler(http.server.BaseHTTPRequestHandler):
                def do_GET(self):
                    user = self.headers.get("user-id", "")
                    with open(os.path.join(root, "requests.log"), "a") as log:
                        log.write(self.path + " " + user + "\\n")
                    file = os.path.join(root, "route-" + os.path.basename(user) + ".json")
                    if self.path != "/get-users-latest-route" or not user or not os.path.exists(file):
                        self.send_response(404); self.end_headers(); return
                    body = open(file, "rb").read()
                    self.send_response(200)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
                def log_message(self, *args):
                    pass
            server = http.server.HTTPServer(("127.0.0.1", 0), Handler)
            print(server.server_address[1], flush=True)
            server.serve_forever()
            """
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", script, directory.path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        var line = Data()
        while !line.contains(0x0A) {
            let byte = output.fileHandleForReading.readData(ofLength: 1)
            guard !byte.isEmpty else { throw CocoaError(.fileReadUnknown) }
            line.append(byte)
        }
        url = "http://127.0.0.1:\(String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))"
    }

    /// The `user-id` headers of the route requests served so far.
    func requestedUsers() -> [String] {
        let log = (try? String(contentsOf: directory.appendingPathComponent("requests.log"), encoding: .utf8)) ?? ""
        return log.split(separator: "\n").compactMap { line in
            line.hasPrefix("/get-users-latest-route ") ? String(line.dropFirst("/get-users-latest-route ".count)) : nil
        }
    }

    func stop() {
        // SIGKILL: a child started from the test runner may not act on SIGTERM, and stop must not hang.
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: directory)
    }
}
