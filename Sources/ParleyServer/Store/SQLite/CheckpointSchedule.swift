/// When the write-ahead log is copied into the database, and by whom (`WALCheckpointer` carries it out).
///
/// A background round copies the log while the writer goes on; the writer copies only a short tail
/// itself, so the log can start over. The rules, with the log's length in frames after each commit:
/// - idle: at `startFrames`, start a background round;
/// - a round running: nothing, unless the log reached `limitFrames` (the background cannot keep up):
///   then the writer waits for the round and copies the rest itself, so the log stays bounded;
/// - a round copied the log up to frame F: if at most `tailFrames` came after F, the writer copies
///   them; otherwise another round starts;
/// - a round found the log busy (the writer was restarting it): start again after the next commit;
/// - a round failed otherwise: the writer copies everything itself at `limitFrames`, which is SQLite's
///   own behaviour with a higher threshold.
struct CheckpointSchedule: Sendable, Equatable {
    /// Frames after which a background round starts (about 16 MiB; SQLite's own threshold is 1,000). A hot page that
    /// many commits rewrite is copied once per round: at 10,000 messages/s rounds at 1,000 frames came every 25 ms and
    /// cost 5–10 % more CPU per message than rounds at 4,000 (docs/PERFORMANCE.md, "A commit without savepoints").
    static let startFrames = 4_000
    /// A tail no longer than this is copied by the writer: at most what SQLite's own checkpoint copies,
    /// usually far less. It must not be shorter than what one busy commit adds (about 500 frames at
    /// 5,000 messages/s), or under load no round would ever leave a tail that short.
    static let tailFrames = 1_000
    /// The log's bound: here the writer stops for the checkpoint, as SQLite's own would.
    static let limitFrames = 10_000

    enum Phase: Sendable, Equatable {
        case idle
        case copying
        /// A background round copied the log up to this frame.
        case copied(through: Int)
        /// The last background round failed (other than by finding the log busy).
        case failed
    }

    /// What the writer does after a commit.
    enum Step: Sendable, Equatable {
        case nothing
        /// Start a background round.
        case startRound
        /// Copy what is left of the log now.
        case copyTail
        /// Wait for the running round to end, then copy what is left.
        case waitAndCopyTail
    }

    /// How a background round ended.
    enum Outcome: Sendable, Equatable {
        case copied(through: Int)
        case busy
        case failed
    }

    private(set) var phase = Phase.idle

    /// The writer committed and the log now holds `frames` frames.
    mutating func committed(frames: Int) -> Step {
        switch phase {
        case .idle:
            guard frames >= Self.startFrames else { return .nothing }
            phase = .copying
            return .startRound
        case .copying:
            guard frames >= Self.limitFrames else { return .nothing }
            phase = .idle
            return .waitAndCopyTail
        case .copied(let through):
            if frames - through <= Self.tailFrames {
                phase = .idle
                return .copyTail
            }
            phase = .copying
            return .startRound
        case .failed:
            guard frames >= Self.limitFrames else { return .nothing }
            phase = .idle
            return .copyTail
        }
    }

    /// A background round ended. A round the writer already waited for (`waitAndCopyTail`) changes nothing.
    mutating func roundEnded(_ outcome: Outcome) {
        guard phase == .copying else { return }
        switch outcome {
        case .copied(let through): phase = .copied(through: through)
        case .busy: phase = .idle
        case .failed: phase = .failed
        }
    }
}
