import Foundation
import ParleyFiles
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The output helpers the command line writes every file through: what a path names, a file that appears only
/// complete, never replaced without `force`, devices written in place, and inputs that name what is wrong.
@Suite("Atomic output and output places")
struct AtomicOutputTests {
    /// A fresh, empty directory for one test.
    static func scratch() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("parley-output-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// The names in `directory`, hidden ones included (a left-over `.partial` file shows here).
    static func names(_ directory: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
    }

    @Test("what a path names: nothing, a file, a directory, a device")
    func places() throws {
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("a").path
        #expect(OutputPlace(file) == .absent)
        try Data("x".utf8).write(to: URL(fileURLWithPath: file))
        #expect(OutputPlace(file) == .regularFile)
        #expect(OutputPlace(directory.path) == .directory)
        #expect(OutputPlace("/dev/null") == .device)
        #expect(OutputPlace("") == .absent)
    }

    @Test("check refuses a directory always and an existing file without force")
    func check() throws {
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("a").path
        try OutputPlace.check(file, force: false)
        try Data("x".utf8).write(to: URL(fileURLWithPath: file))
        #expect(throws: FilePathError("\(file) already exists: choose another path or pass --force to replace it")) {
            try OutputPlace.check(file, force: false)
        }
        try OutputPlace.check(file, force: true)
        #expect(throws: FilePathError("\(directory.path) is a directory: name a file to write")) {
            try OutputPlace.check(directory.path, force: true)
        }
        try OutputPlace.check("/dev/null", force: false)
    }

    @Test("the file appears only at commit, with the mode asked for")
    func appearsComplete() throws {
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("out").path
        let output = try AtomicOutput(path: path, force: false, mode: 0o600)
        try output.stream.write(Array("hello".utf8))
        #expect(!FileManager.default.fileExists(atPath: path))
        #if os(Linux)
        // Not even a hidden name while it is written: a process killed now leaves nothing (O_TMPFILE).
        #expect(try Self.names(directory).isEmpty)
        #endif
        try output.commit()
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data("hello".utf8))
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        #expect(try Self.names(directory) == ["out"])
    }

    @Test("a failing body leaves nothing behind, not even the temporary file")
    func failureLeavesNothing() throws {
        struct Refused: Error {}
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("out").path
        #expect(throws: Refused.self) {
            try AtomicOutput.write(to: path, force: false) { stream in
                try stream.write(Array(repeating: 7, count: 100_000))
                throw Refused()
            }
        }
        #expect(try Self.names(directory).isEmpty)
    }

    @Test("an existing file is kept without force and replaced with it")
    func replaceOnlyWithForce() throws {
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("out").path
        try FileIO.write(Data("old".utf8), to: path, force: false, private: false)
        #expect(throws: FilePathError.self) { try FileIO.write(Data("new".utf8), to: path, force: false, private: false) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data("old".utf8))
        try FileIO.write(Data("new".utf8), to: path, force: true, private: false)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data("new".utf8))
        #expect(try Self.names(directory) == ["out"])
    }

    @Test("a file that appears while the output is open is not replaced")
    func racingFileKept() throws {
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("out").path
        let output = try AtomicOutput(path: path, force: false)
        try output.stream.write(Array("mine".utf8))
        try Data("theirs".utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: FilePathError("\(path) already exists: choose another path or pass --force to replace it")) {
            try output.commit()
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data("theirs".utf8))
        #expect(try Self.names(directory) == ["out"])
    }

    @Test("a device is written in place, never renamed over")
    func deviceInPlace() throws {
        try AtomicOutput.write(to: "/dev/null", force: false) { try $0.write(Array(repeating: 1, count: 1 << 16)) }
        #expect(OutputPlace("/dev/null") == .device)
    }

    @Test("a directory that does not exist is named, and nothing is made")
    func missingDirectory() throws {
        let path = "/nonexistent-\(UUID().uuidString)/out"
        #expect(throws: FilePathError("\(path): cannot write here (check the directory exists and is writable)")) {
            _ = try AtomicOutput(path: path, force: false)
        }
    }

    @Test("the write-back window is crossed without changing a byte", arguments: [0, 1, WritebackOutput.window - 1, WritebackOutput.window, WritebackOutput.window * 2 + 3])
    func writebackWindows(size: Int) throws {
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("big").path
        let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        try AtomicOutput.write(to: path, force: false) { stream in
            // Odd-sized pieces, so window edges fall inside writes.
            var offset = 0
            while offset < bytes.count {
                let end = min(bytes.count, offset + 1_000_003)
                try stream.write(Array(bytes[offset..<end]))
                offset = end
            }
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data(bytes))
    }

    @Test("inputs: a missing file is named, a file's size is known, the stream reads to its end")
    func inputs() throws {
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let missing = directory.appendingPathComponent("missing").path
        #expect(throws: FilePathError("\(missing): no such file")) { _ = try FileIO.read(missing) }
        #expect(throws: FilePathError("\(missing): no such file")) { _ = try StreamInput.stream(missing) }
        let path = directory.appendingPathComponent("in").path
        try Data(Array(repeating: 9, count: 70_000)).write(to: URL(fileURLWithPath: path))
        let source = try StreamInput.stream(path)
        defer { source.close() }
        #expect(source.size == 70_000)
        #expect(try source.input.readPrefix(5) == [9, 9, 9, 9, 9])
        #expect(try source.input.countRemaining() == 69_995)
        #expect(try source.input.readAll().isEmpty)
    }

    @Test("inputs that are not files are said as what they are: a directory, a path through a file, a device that never ends")
    func inputsThatAreNotFiles() throws {
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(throws: FilePathError("\(directory.path) is a directory: name a file to read")) { _ = try FileIO.read(directory.path) }
        #expect(throws: FilePathError("\(directory.path) is a directory: name a file to read")) { _ = try StreamInput.stream(directory.path) }
        let file = directory.appendingPathComponent("in").path
        try Data("x".utf8).write(to: URL(fileURLWithPath: file))
        #expect(throws: FilePathError("\(file)/key: a part of this path is a file, not a directory")) { _ = try FileIO.read(file + "/key") }
        // A device reads as its bytes: /dev/null as nothing; one that never ends stops at the cap, in words.
        #expect(try FileIO.read("/dev/null").isEmpty)
        let endless = try StreamInput.stream("/dev/zero")
        defer { endless.close() }
        #expect(throws: FileError.io("it holds more than 1 MiB, the most read into memory here")) {
            _ = try endless.input.readAll(maximumBytes: 1 << 20)
        }
    }

    @Test("reading a prefix of a cut input gives what there is; garbage is returned as is")
    func truncatedInput() throws {
        #expect(try MemoryInput([1, 2, 3]).readPrefix(10) == [1, 2, 3])
        #expect(try MemoryInput([]).readPrefix(4) == [])
        let garbage = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 7919) }
        #expect(try MemoryInput(garbage).readAll() == garbage)
    }
}
