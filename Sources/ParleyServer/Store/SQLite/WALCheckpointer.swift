import Dispatch
import GRDB
import GRDBSQLite
import Synchronization

/// Keeps SQLite's write-ahead log short without making the writer wait for it.
///
/// SQLite's own checkpoint runs inside the commit that grows the log past its threshold, so every
/// message waiting for that commit also waits for the copy into the database file and its flush: at
/// 5,000 messages/s that was a 15–95 ms stall about every 70 ms (docs/PERFORMANCE.md). Here a
/// connection of its own does most of the copying on a background queue, with PASSIVE checkpoints,
/// which never block the writer; `CheckpointSchedule` says when, and what is left to the writer.
///
/// The checkpointer is the writer connection's WAL hook, which turns SQLite's automatic checkpoint off
/// for that connection (`sqlite3_wal_autocheckpoint` sets the same hook). It runs on the writer's
/// thread after every commit, whichever path made it.
final class WALCheckpointer: Sendable {
    /// Background rounds started and short tails the writer copied so far (for tests).
    struct Counts: Sendable, Equatable {
        var rounds = 0
        var tails = 0
    }

    private let schedule = Mutex(CheckpointSchedule())
    private let counts = Mutex(Counts())
    private let path: String
    private let configuration: Configuration
    private let background = DispatchQueue(label: "parley.sqlite.checkpoint", qos: .utility)
    /// The background connection, opened on first use and used only on `background`.
    private let connection = Mutex<DatabaseQueue?>(nil)

    /// A checkpointer for the database at `path`; its own connection is opened with `configuration`.
    init(path: String, configuration: Configuration) {
        self.path = path
        self.configuration = configuration
    }

    var done: Counts { counts.withLock { $0 } }

    /// Makes this the WAL hook of the writer connection `db`. The pointer SQLite keeps is not retained:
    /// the configuration closure that calls this holds `self`, and every connection holds its configuration.
    func install(on db: Database) {
        sqlite3_wal_hook(db.sqliteConnection, { context, connection, _, frames in
            guard let context, let connection else { return SQLITE_OK }
            Unmanaged<WALCheckpointer>.fromOpaque(context).takeUnretainedValue().committed(connection, frames: Int(frames))
            return SQLITE_OK
        }, Unmanaged.passUnretained(self).toOpaque())
    }

    /// After each commit of the writer, on its thread, with the frames the log now holds.
    private func committed(_ connection: OpaquePointer, frames: Int) {
        switch schedule.withLock({ $0.committed(frames: frames) }) {
        case .nothing:
            break
        case .startRound:
            counts.withLock { $0.rounds += 1 }
            background.async { self.copyRound() }
        case .copyTail:
            counts.withLock { $0.tails += 1 }
            copyTail(connection)
        case .waitAndCopyTail:
            background.sync {}
            copyTail(connection)
        }
    }

    /// A PASSIVE checkpoint on the writer's connection: frames a reader still needs stay for a later round.
    private func copyTail(_ connection: OpaquePointer) {
        sqlite3_wal_checkpoint_v2(connection, "main", SQLITE_CHECKPOINT_PASSIVE, nil, nil)
    }

    /// Waits for a background round in flight: after this, nothing of the checkpointer writes the database
    /// file until the next commit (a stopped server's file stays as it is).
    func quiesce() {
        background.sync {}
    }

    private func copyRound() {
        let outcome: CheckpointSchedule.Outcome
        do {
            let queue = try connection.withLock { connection in
                if let connection { return connection }
                let opened = try DatabaseQueue(path: path, configuration: configuration)
                connection = opened
                return opened
            }
            let result = try queue.writeWithoutTransaction { try $0.checkpoint(.passive) }
            outcome = .copied(through: result.checkpointedFrameCount)
        } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY {
            outcome = .busy
        } catch {
            outcome = .failed
        }
        schedule.withLock { $0.roundEnded(outcome) }
    }
}
