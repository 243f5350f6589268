import Foundation
import NIOCore
import NIOPosix

/// Why a connection to the server could not be made, in the words of someone running a server: never a
/// networking library's type names (`SingleConnectionFailure(…)`) or bare errno numbers.
public enum ConnectFailure {
    /// `error` from making a connection, in words.
    public static func describe(_ error: any Error) -> String {
        if let error = error as? NIOConnectionError {
            if error.connectionErrors.isEmpty {
                return "cannot find the host '\(error.host)' (check the name, or use an IP address)"
            }
            var reasons: [String] = []
            for failure in error.connectionErrors where !reasons.contains(describe(failure.error)) {
                reasons.append(describe(failure.error))
            }
            return reasons.joined(separator: "; ")
        }
        if let error = error as? IOError { return describe(errno: error.errnoCode) }
        if let error = error as? ChannelError, case .connectTimeout = error { return "no answer within the connect timeout" }
        if error is ChannelError { return "the connection was refused or timed out" }
        return "the connection failed"
    }

    private static func describe(errno code: Int32) -> String {
        switch code {
        case ECONNREFUSED: "nothing is listening there (is the server running?)"
        case ETIMEDOUT: "no answer (timed out)"
        case ENETUNREACH, EHOSTUNREACH: "this machine has no route to it (check the network)"
        case ECONNRESET: "the connection was reset"
        default: String(cString: strerror(code)).lowercased()
        }
    }
}
