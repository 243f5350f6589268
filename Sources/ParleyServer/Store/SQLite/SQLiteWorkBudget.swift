import GRDB
import GRDBSQLite

/// Stops a read after a bounded amount of work: SQLite's progress handler counts the virtual machine's steps and
/// interrupts the statement once `steps` have run. A step is about 150 ns here; a message row read by a search takes
/// about 9 (measured: 1,000,000 rows, 9.0 million steps, 1.39 s).
///
/// For a query whose cost the caller chooses and no index bounds (`search_messages` with a filter that matches
/// nothing reads every message of every conversation the caller is in).
enum SQLiteWorkBudget {
    /// How many steps run between two calls of the handler.
    private static let interval: Int32 = 1_000

    /// `body`'s value, or nil when it was stopped for running past `steps`. The handler is removed afterwards: the
    /// connection goes back to the pool without it.
    static func run<T>(_ db: Database, steps: Int, _ body: () throws -> T) throws -> T? {
        let calls = UnsafeMutablePointer<Int>.allocate(capacity: 1)
        calls.initialize(to: max(1, steps / Int(interval)))
        defer {
            sqlite3_progress_handler(db.sqliteConnection, 0, nil, nil)
            calls.deallocate()
        }
        sqlite3_progress_handler(db.sqliteConnection, interval, { context in
            guard let left = context?.assumingMemoryBound(to: Int.self) else { return 0 }
            left.pointee -= 1
            return left.pointee < 0 ? 1 : 0
        }, calls)
        do {
            return try body()
        } catch let error as DatabaseError where error.resultCode == .SQLITE_INTERRUPT {
            return nil
        }
    }
}
