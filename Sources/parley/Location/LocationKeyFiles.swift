import Foundation
import ParleyFiles
import ParleyLocation
import ParleyTerminal

/// The v2 key file: the key as base64url on one line, readable by the owner only.
enum LocationKeyFile {
    static func read(_ path: String) throws -> LocationKey {
        let text = String(decoding: try FileIO.read(path), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        do {
            return try LocationKey(base64URL: text)
        } catch {
            throw CommandFailure("\(path) is not a location key file (expected 43 base64url characters from `parley location keygen`)")
        }
    }
}

/// A legacy key given on the command line.
enum LegacyKeyText {
    static func parse(_ text: String) throws -> LegacyKey {
        do {
            return try LegacyKey(base64: text)
        } catch {
            throw CommandFailure("the Berry Picker Tracker key must be 16 or 32 bytes in standard base64 (24 or 44 characters); check the file or PARLEY_LEGACY_KEY")
        }
    }
}

/// The current time in ms, for positions that carry none.
enum WallClock {
    static func nowMilliseconds() -> Int64 { Int64((Date().timeIntervalSince1970 * 1000).rounded()) }
}

/// Unbuffered line output, so a follower or a gpsd feed shows each position as it happens.
enum LineOutput {
    static func write(_ line: String) {
        Console.out(line)
    }
}
