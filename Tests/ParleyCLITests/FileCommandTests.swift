import Foundation
import ParleyTestSupport
import Testing

@Suite("parley file", .offThePool)
struct FileCommandTests {
    let directory: URL
    /// Removed with everything in it when the test's instance goes.
    private let scratch: TemporaryDirectory

    init() throws {
        scratch = try TemporaryDirectory("parley-file")
        directory = scratch.url
    }

    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    func write(_ text: String, to name: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path(name)))
    }

    func read(_ name: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path(name))) }

    /// Makes a key pair named `name`.ecp1 / `name`.pem under password "key pw".
    func keygen(_ name: String, kind: String = "x25519") throws {
        let result = try ParleyBinary.run(
            ["file", "keygen", "--kind", kind, "-o", path("\(name).ecp1"), "--public", path("\(name).pem"),
             "--iterations", "210000", "--password-stdin"], stdin: "key pw\n")
        #expect(result.status == 0, "\(result.stderr)")
    }

    @Test("keygen, seal, inspect and open round trip for every key kind", arguments: ["x25519", "p256", "xwing"])
    func roundTrip(kind: String) throws {
        try keygen("me", kind: kind)
        let secret = String(repeating: "attack at dawn. ", count: 10_000)
        try write(secret, to: "plain.txt")
        let seal = try ParleyBinary.run(["file", "seal", "-r", path("me.pem"), path("plain.txt"), "-o", path("plain.prly")])
        #expect(seal.status == 0, "\(seal.stderr)")
        #expect(try read("plain.prly").prefix(8) == Data("PRLYFILE".utf8))

        let inspect = try ParleyBinary.run(["file", "inspect", path("plain.prly")])
        #expect(inspect.status == 0)
        #expect(inspect.stdout.contains("format: Parley file v1"))
        #expect(inspect.stdout.contains("plaintext: \(secret.utf8.count) bytes"))

        let open = try ParleyBinary.run(
            ["file", "open", "-i", path("me.ecp1"), path("plain.prly"), "-o", path("out.txt")],
            environment: ["PARLEY_PASSWORD": "key pw"])
        #expect(open.status == 0, "\(open.stderr)")
        #expect(try read("out.txt") == Data(secret.utf8))
    }

    @Test("outputs larger than several 8 MiB write-back windows arrive whole, sealed and opened through files")
    func largeOutputs() throws {
        try keygen("me")
        let random = try #require(FileHandle(forReadingAtPath: "/dev/urandom"))
        defer { try? random.close() }
        let plaintext = random.readData(ofLength: (20 << 20) + 12_345)
        #expect(plaintext.count == (20 << 20) + 12_345)
        try plaintext.write(to: URL(fileURLWithPath: path("big")))
        let seal = try ParleyBinary.run(["file", "seal", "-r", path("me.pem"), path("big"), "-o", path("big.prly")])
        #expect(seal.status == 0, "\(seal.stderr)")
        let sealedSize = try FileManager.default.attributesOfItem(atPath: path("big.prly"))[.size] as? Int
        let chunks = (plaintext.count + 65_535) / 65_536
        #expect(sealedSize.map { $0 > plaintext.count + chunks * 16 } == true)
        let open = try ParleyBinary.run(
            ["file", "open", "-i", path("me.ecp1"), path("big.prly"), "-o", path("big.out")],
            environment: ["PARLEY_PASSWORD": "key pw"])
        #expect(open.status == 0, "\(open.stderr)")
        #expect(try read("big.out") == plaintext)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".partial") }
        #expect(leftovers.isEmpty)
    }

    @Test("a passphrase-only file opens with the passphrase; a wrong one fails without output")
    func passphrase() throws {
        try write("for your eyes", to: "p.txt")
        // Two lanes, not the default sixteen: each lane is a whole scrypt at 2^14, which in a debug build (BoringSSL
        // at -O0) takes seconds, and this test derives three times.
        let seal = try ParleyBinary.run(
            ["file", "seal", "--passphrase", "--work-factor", "14", "--lanes", "2", "--password-stdin", path("p.txt"), "-o", path("p.prly")],
            stdin: "open sesame\n")
        #expect(seal.status == 0, "\(seal.stderr)")
        let inspect = try ParleyBinary.run(["file", "inspect", path("p.prly")])
        #expect(inspect.stdout.contains("1. passphrase (scrypt 2^14, 2 lanes)"), "\(inspect.stdout)")
        let tooMuch = try ParleyBinary.run(
            ["file", "seal", "--passphrase", "--lanes", "65", "--password-stdin", path("p.txt"), "-o", path("q.prly")],
            stdin: "open sesame\n")
        #expect(tooMuch.status == 64)
        #expect(tooMuch.stderr.contains("scrypt lanes 65 is outside 1…64"), "\(tooMuch.stderr)")
        #expect(!FileManager.default.fileExists(atPath: path("q.prly")))
        let wrong = try ParleyBinary.run(["file", "open", "--password-stdin", path("p.prly"), "-o", path("out")], stdin: "open sesamo\n")
        #expect(wrong.status == 1)
        #expect(wrong.stderr.contains("could not decrypt or authenticate"))
        #expect(!wrong.stderr.contains("sesam"))
        #expect(!FileManager.default.fileExists(atPath: path("out")))
        let right = try ParleyBinary.run(["file", "open", "--password-stdin", path("p.prly"), "-o", "-"], stdin: "open sesame\n")
        #expect(right.status == 0)
        #expect(right.stdout == "for your eyes")
    }

    @Test("the wrong key fails with one clear error and leaves no output file, not even a partial one")
    func wrongKey() throws {
        try keygen("alice")
        try keygen("mallory")
        try Data(repeating: 0x41, count: 300_000).write(to: URL(fileURLWithPath: path("big")))
        _ = try ParleyBinary.run(["file", "seal", "-r", path("alice.pem"), path("big"), "-o", path("big.prly")])
        let open = try ParleyBinary.run(
            ["file", "open", "-i", path("mallory.ecp1"), path("big.prly"), "-o", path("out")],
            environment: ["PARLEY_PASSWORD": "key pw"])
        #expect(open.status == 1)
        #expect(open.stderr.contains("could not decrypt or authenticate"))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.contains("out") }
        #expect(leftovers.isEmpty)
    }

    @Test("a file corrupted in its last chunk leaves no output file behind")
    func failedOpenLeavesNothing() throws {
        try keygen("me")
        try Data(repeating: 0x42, count: 200_000).write(to: URL(fileURLWithPath: path("big")))
        _ = try ParleyBinary.run(["file", "seal", "-r", path("me.pem"), path("big"), "-o", path("big.prly")])
        var sealed = try read("big.prly")
        sealed[sealed.count - 20] ^= 0x01
        try sealed.write(to: URL(fileURLWithPath: path("bad.prly")))
        let open = try ParleyBinary.run(
            ["file", "open", "-i", path("me.ecp1"), path("bad.prly"), "-o", path("out")], environment: ["PARLEY_PASSWORD": "key pw"])
        #expect(open.status == 1)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.contains("out") }
        #expect(leftovers.isEmpty)
    }

    @Test("standard input to standard output works both ways")
    func pipes() throws {
        try keygen("me")
        let seal = try ParleyBinary.runBinary(["file", "seal", "-r", path("me.pem"), "-", "-o", "-"], stdin: Data("piped plaintext".utf8))
        #expect(seal.status == 0, "\(seal.stderr)")
        #expect(seal.stdout.prefix(8) == Data("PRLYFILE".utf8))
        let open = try ParleyBinary.runBinary(
            ["file", "open", "-i", path("me.ecp1"), "-", "-o", "-"], stdin: seal.stdout, environment: ["PARLEY_PASSWORD": "key pw"])
        #expect(open.status == 0, "\(open.stderr)")
        #expect(open.stdout == Data("piped plaintext".utf8))
        let inspect = try ParleyBinary.runBinary(["file", "inspect", "-"], stdin: seal.stdout)
        #expect(String(decoding: inspect.stdout, as: UTF8.self).contains("plaintext: 15 bytes in 1 chunk"))
    }

    @Test("an existing output is never replaced without --force")
    func noClobber() throws {
        try keygen("me")
        try write("new", to: "in")
        try write("keep me", to: "existing")
        let seal = try ParleyBinary.run(["file", "seal", "-r", path("me.pem"), path("in"), "-o", path("existing")])
        #expect(seal.status != 0)
        #expect(seal.stderr.contains("--force"))
        #expect(try String(contentsOfFile: path("existing"), encoding: .utf8) == "keep me")
        let forced = try ParleyBinary.run(["file", "seal", "-r", path("me.pem"), path("in"), "-o", path("existing"), "--force"])
        #expect(forced.status == 0)
        let again = try ParleyBinary.run(
            ["file", "keygen", "-o", path("me.ecp1"), "--public", path("me.pem")], environment: ["PARLEY_PASSWORD": "x"])
        #expect(again.status != 0)
        #expect(again.stderr.contains("already exists"))
    }

    @Test("garbage input is refused with a clear message", arguments: ["inspect", "open"])
    func garbage(command: String) throws {
        try write("this is not an encrypted file at all", to: "junk")
        let result = try ParleyBinary.run(
            command == "inspect" ? ["file", "inspect", path("junk")] : ["file", "open", path("junk"), "-o", path("o")],
            environment: ["PARLEY_PASSWORD": "x"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("not a Parley or FileLock encrypted file"))
        try Data("PRLYFILE\u{01}\u{00}\u{00}".utf8).write(to: URL(fileURLWithPath: path("short")))
        let short = try ParleyBinary.run(["file", "inspect", path("short")])
        #expect(short.status == 1)
        #expect(short.stderr.contains("malformed"))
    }

    @Test("mixing post-quantum and classic recipients is refused with the reason")
    func pqMixing() throws {
        try keygen("pq", kind: "xwing")
        try keygen("classic")
        try write("x", to: "in")
        let seal = try ParleyBinary.run(["file", "seal", "-r", path("pq.pem"), "-r", path("classic.pem"), path("in"), "-o", path("o")])
        #expect(seal.status == 1)
        #expect(seal.stderr.contains("cannot be mixed"))
        #expect(!FileManager.default.fileExists(atPath: path("o")))
    }

    @Test("FileLock packages: seal with a P-256 key, recognised by inspect and open")
    func fileLock() throws {
        try keygen("se", kind: "p256")
        try write("FileLock interop", to: "in")
        let seal = try ParleyBinary.run(["file", "seal", "--format", "filelock", "-r", path("se.pem"), path("in"), "-o", path("pkg")])
        #expect(seal.status == 0, "\(seal.stderr)")
        #expect(try read("pkg").prefix(4) == Data([0, 0, 0, 113]))
        let inspect = try ParleyBinary.run(["file", "inspect", path("pkg")])
        #expect(inspect.stdout.contains("format: FileLock package"))
        let open = try ParleyBinary.run(
            ["file", "open", "-i", path("se.ecp1"), path("pkg"), "-o", "-"], environment: ["PARLEY_PASSWORD": "key pw"])
        #expect(open.stdout == "FileLock interop")
    }

    // The recipient key and blob below are from the independent vectors
    // (Tests/ParleyFilesTests/Vectors/apple-ecies.json, second valid entry).
    static let vectorPKCS8 = """
        -----BEGIN PRIVATE KEY-----
        MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg1zeuDIHChWixHTcs
        oiBsH3tEF5mko51PJCC4ShfH2iqhRANCAAQMrRThXxJjnK1PA1trYZFlapFRIRBY
        vJs4R+7lNv1PNsoXg1Oe9SdAkoh5ZxKDFvky54WUH4sgFCl4zMkX/N36
        -----END PRIVATE KEY-----

        """
    static let vectorFileLockPublic = """
        -----BEGIN PUBLIC KEY-----
        BAytFOFfEmOcrU8DW2thkWVqkVEhEFi8mzhH7uU2/U82yheDU571J0CSiHlnEoMW+TLnhZQfiyAUKXjMyRf83fo=
        -----END PUBLIC KEY-----

        """
    static let vectorAppleRaw = "BAytFOFfEmOcrU8DW2thkWVqkVEhEFi8mzhH7uU2/U82yheDU571J0CSiHlnEoMW+TLnhZQfiyAUKXjMyRf83frXN64MgcKFaLEdNyyiIGwfe0QXmaSjnU8kILhKF8faKg=="
    static let vectorBlob = "046da4ce29eb44f2c9db9be91d417b2f9c980522eb21a443660be38fd29d4762482d39744d9ec7b1bca48a4d7c413ec21cc380bbf91e5b8a0201d25f972635eceed6f388c2076c7d87cde0327ddf1eb296820b5dba4be6f9b75ee69e90f885"

    static func bytes(hex: String) -> Data {
        var data = Data()
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            data.append(UInt8(hex[index..<next], radix: 16)!)
            index = next
        }
        return data
    }

    @Test("unwrap opens a known-answer blob with a PKCS#8 key and with Apple's raw key")
    func unwrapVector() throws {
        try write(Self.vectorPKCS8, to: "key.pem")
        try write(Self.vectorAppleRaw, to: "key.raw")
        for key in ["key.pem", "key.raw"] {
            let result = try ParleyBinary.runBinary(["file", "unwrap", "--key", path(key)], stdin: Self.bytes(hex: Self.vectorBlob))
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout == Data("hello FileLock".utf8))
        }
        let wrongVariant = try ParleyBinary.runBinary(
            ["file", "unwrap", "--key", path("key.pem"), "--variant", "variable-iv"], stdin: Self.bytes(hex: Self.vectorBlob))
        #expect(wrongVariant.status == 1)
        #expect(wrongVariant.stderr.contains("could not decrypt or authenticate"))
        let garbage = try ParleyBinary.runBinary(["file", "unwrap", "--key", path("key.pem")], stdin: Data("junk".utf8))
        #expect(garbage.status == 1)
        #expect(garbage.stderr.contains("malformed ECIES data"))
    }

    @Test("wrap to FileLock's public key, then unwrap, in both variants")
    func wrapRoundTrip() throws {
        try write(Self.vectorPKCS8, to: "key.pem")
        try write(Self.vectorFileLockPublic, to: "pub.pem")
        for variant in ["cofactor", "variable-iv"] {
            let wrapped = try ParleyBinary.runBinary(["file", "wrap", "--to", path("pub.pem"), "--variant", variant], stdin: Data("32 bytes of AES key material....".utf8))
            #expect(wrapped.status == 0, "\(wrapped.stderr)")
            #expect(wrapped.stdout.count == 113)
            let unwrapped = try ParleyBinary.runBinary(["file", "unwrap", "--key", path("key.pem"), "--variant", variant], stdin: wrapped.stdout)
            #expect(unwrapped.stdout == Data("32 bytes of AES key material....".utf8))
        }
        let notAKey = try ParleyBinary.runBinary(["file", "wrap", "--to", path("key.pem")], stdin: Data("x".utf8))
        #expect(notAKey.status == 1)
        #expect(notAKey.stderr.contains("unrecognised P-256 public key"))
    }

    @Test("a password on the command line is not an option")
    func noArgvPassword() throws {
        let result = try ParleyBinary.run(["file", "seal", "--passphrase", "--password", "oops", "in", "-o", "out"])
        #expect(result.status == 64)
    }
}
