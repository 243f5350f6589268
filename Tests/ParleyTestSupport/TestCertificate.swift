import Foundation

/// Throwaway self-signed TLS certificates for 127.0.0.1, made with the real openssl.
public enum TestCertificate {
    struct OpenSSLFailed: Error, CustomStringConvertible {
        var description: String { "openssl could not make a test certificate (is the openssl package installed?)" }
    }

    /// Writes `NAME.pem` and `NAME-key.pem` (P-256) into `directory`; returns their paths.
    /// `hostNames`: DNS names the certificate also holds (a test server that plays several domains).
    public static func make(in directory: URL, name: String = "cert", hostNames: [String] = []) throws -> (cert: String, key: String) {
        let cert = directory.appendingPathComponent("\(name).pem").path
        let key = directory.appendingPathComponent("\(name)-key.pem").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments = [
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "1",
            "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=" + (["IP:127.0.0.1"] + hostNames.map { "DNS:\($0)" }).joined(separator: ","), "-keyout", key, "-out", cert,
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try ProcessLaunch.start(process)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw OpenSSLFailed() }
        return (cert, key)
    }
}
