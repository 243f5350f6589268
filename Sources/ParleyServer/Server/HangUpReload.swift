import Logging
import UnixSignals

/// `SIGHUP` tells a running server to read its TLS certificate and key again (certbot's deploy hook, or
/// `systemctl reload parley-server`): connections accepted afterwards get the new certificate, and open ones stay.
public enum HangUpReload {
    /// Starts trapping SIGHUP (so it no longer ends the process) and reloads on each one until cancelled.
    public static func start(_ server: ParleyServer, logger: Logger) async -> Task<Void, Never> {
        let hangUps = await UnixSignalsSequence(trapping: .sighup)
        return Task {
            for await _ in hangUps {
                do {
                    if try !server.reloadTLS() {
                        logger.notice("SIGHUP: this server has no TLS certificate to reload")
                    }
                } catch {
                    logger.error("SIGHUP: the TLS certificate was not reloaded (\(error)); the one in use stays")
                }
            }
        }
    }
}
