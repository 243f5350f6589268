@testable import ParleyServer
import Testing

/// The memory budget's bookkeeping as values, without sockets (the socket tests are in MemoryBudgetTests).
@Suite("Memory budget bookkeeping")
struct BudgetBookkeepingTests {
    @Test("a read leaves buffered what follows its last newline, or everything when it has none")
    func partialAfter() {
        #expect(LineBudget.partialAfter(buffered: 10, reading: Array("abc".utf8)) == 13)
        #expect(LineBudget.partialAfter(buffered: 10, reading: Array("a\nbc".utf8)) == 2)
        #expect(LineBudget.partialAfter(buffered: 10, reading: Array("abc\n".utf8)) == 0)
        #expect(LineBudget.partialAfter(buffered: 0, reading: [UInt8]()) == 0)
    }

    @Test("the line budget gives out no more than its capacity and takes back what is released")
    func lineBudget() {
        let budget = LineBudget(capacity: 100)
        #expect(budget.reserve(60))
        #expect(!budget.reserve(41))
        #expect(budget.reserve(40))
        budget.release(60)
        #expect(budget.reserved == 40)
        #expect(budget.reserve(60))
        #expect(!budget.reserve(1))
    }

    @Test("connections are counted in total, per address and by seat; release frees each count")
    func connectionBudget() {
        var limits = ConnectionLimits()
        limits.maximumConnections = 4
        limits.maximumConnectionsPerAddress = 2
        limits.maximumUnauthenticatedConnections = 3
        limits.maximumPairingConnectionsPerAddress = 1
        let budget = ConnectionBudget(limits: limits)
        #expect(budget.admit(address: "a") == nil)
        #expect(budget.admit(address: "a") == nil)
        #expect(budget.admit(address: "a") == .connectionsPerAddress)
        #expect(budget.admit(address: "b") == nil)
        #expect(budget.admit(address: "c") == .unauthenticated)
        #expect(budget.move(address: "a", from: .stranger, to: .member) == nil)
        #expect(budget.admit(address: "c") == nil, "a login freed a stranger's place")
        #expect(budget.admit(address: "d") == .connections)
        #expect(budget.move(address: "b", from: .stranger, to: .pairing) == nil)
        #expect(budget.move(address: "c", from: .stranger, to: .pairing) == nil)
        budget.release(address: "b", seat: .pairing)
        #expect(budget.move(address: "a", from: .stranger, to: .pairing) == nil)
        #expect(budget.move(address: "a", from: .stranger, to: .pairing) == .pairingPerAddress)
        #expect(budget.openConnections == 3)
    }

    @Test("memory is trimmed once a flood has passed, not while it lasts or on a quiet server")
    func floodPassed() {
        let memory = MemoryReturn(minimumArrivals: 64)
        #expect(memory.floodPassed(.init(arrivals: 1_000, peak: 64, open: 0)))
        #expect(!memory.floodPassed(.init(arrivals: 1_000, peak: 64, open: 60)), "the flood still holds its places")
        #expect(!memory.floodPassed(.init(arrivals: 10, peak: 10, open: 0)), "a few connections are no flood")
    }
}
