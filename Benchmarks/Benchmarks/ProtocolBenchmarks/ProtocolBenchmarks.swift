import Benchmark
import ParleyCrypto
import ParleyProtocol

/// Two sessions past the handshake, so every message is a plain ratchet message.
struct Pair: Sendable {
    let alice: SessionRecord
    let bob: SessionRecord
    let aliceIdentity: IdentityKeyPair
    let bobIdentity: IdentityKeyPair
    let signedPreKey: SignedPreKeyRecord
    let pqPreKey: PQPreKeyRecord

    static func make() throws -> Pair {
        let random = SystemRandomSource()
        let aliceIdentity = IdentityKeyPair(random: random), bobIdentity = IdentityKeyPair(random: random)
        let spk = SignedPreKeyRecord.generate(id: 1, identity: bobIdentity, now: 0, random: random)
        let pq = PQPreKeyRecord.generate(id: 2, identity: bobIdentity, now: 0, random: random)
        let bundle = PreKeyBundle(identity: bobIdentity, signedPreKey: spk, oneTimePreKey: nil, pqPreKey: pq)
        var alice = SessionRecord(state: try PQXDH.initiate(identity: aliceIdentity, bundle: bundle, random: random))
        guard case .preKeyMessage(let first) = try alice.encrypt([1], random: random) else { fatalError() }
        var bob = SessionRecord(
            state: try PQXDH.respond(
                identity: bobIdentity, message: first, signedPreKey: spk, oneTimePreKey: nil, pqPreKey: pq))
        _ = try bob.decrypt(first.message, random: random)
        guard case .message(let reply) = try bob.encrypt([2], random: random) else { fatalError() }
        _ = try alice.decrypt(reply, random: random)
        return Pair(alice: alice, bob: bob, aliceIdentity: aliceIdentity, bobIdentity: bobIdentity, signedPreKey: spk, pqPreKey: pq)
    }
}

let hundredBytes = [UInt8](repeating: 0x61, count: 100)

let benchmarks: @Sendable () -> Void = {
    let pair = try! Pair.make()
    let metrics: [BenchmarkMetric] = [.throughput, .wallClock, .cpuTotal, .mallocCountTotal]

    Benchmark("PQXDH session setup (initiate + respond + first message)", configuration: .init(metrics: metrics)) { benchmark in
        let random = SystemRandomSource()
        let bundle = PreKeyBundle(
            identity: pair.bobIdentity, signedPreKey: pair.signedPreKey, oneTimePreKey: nil, pqPreKey: pair.pqPreKey)
        for _ in benchmark.scaledIterations {
            var alice = SessionRecord(
                state: try PQXDH.initiate(identity: pair.aliceIdentity, bundle: bundle, random: random))
            guard case .preKeyMessage(let first) = try alice.encrypt(hundredBytes, random: random) else { fatalError() }
            var bob = try PQXDH.respond(
                identity: pair.bobIdentity, message: first, signedPreKey: pair.signedPreKey, oneTimePreKey: nil,
                pqPreKey: pair.pqPreKey)
            blackHole(try bob.decrypt(first.message, random: random))
        }
    }

    Benchmark("Ratchet encrypt 100 B", configuration: .init(metrics: metrics, scalingFactor: .kilo)) { benchmark in
        let random = SystemRandomSource()
        var alice = pair.alice
        for _ in benchmark.scaledIterations {
            blackHole(try alice.encrypt(hundredBytes, random: random))
        }
    }

    Benchmark("Ratchet decrypt 100 B", configuration: .init(metrics: metrics, scalingFactor: .kilo)) { benchmark in
        let random = SystemRandomSource()
        var alice = pair.alice
        var bob = pair.bob
        let messages: [RatchetMessage] = try benchmark.scaledIterations.map { _ in
            guard case .message(let m) = try alice.encrypt(hundredBytes, random: random) else { fatalError() }
            return m
        }
        benchmark.startMeasurement()
        for message in messages {
            blackHole(try bob.decrypt(message, random: random))
        }
        benchmark.stopMeasurement()
    }

    let sender = SenderKeyRecord(state: .newChain(random: SystemRandomSource()))
    let receiver = SenderKeyRecord(state: try! SenderKeyState(distribution: sender.newest.distributionMessage))

    Benchmark("Sender key encrypt 100 B", configuration: .init(metrics: metrics, scalingFactor: .kilo)) { benchmark in
        let random = SystemRandomSource()
        var own = sender
        for _ in benchmark.scaledIterations {
            blackHole(try own.encrypt(hundredBytes, groupId: "benchmark", random: random))
        }
    }

    Benchmark("Sender key decrypt 100 B", configuration: .init(metrics: metrics, scalingFactor: .kilo)) { benchmark in
        let random = SystemRandomSource()
        var own = sender
        var theirs = receiver
        let messages = try benchmark.scaledIterations.map { _ in
            try own.encrypt(hundredBytes, groupId: "benchmark", random: random)
        }
        benchmark.startMeasurement()
        for message in messages {
            blackHole(try theirs.decrypt(message, groupId: "benchmark"))
        }
        benchmark.stopMeasurement()
    }
}
