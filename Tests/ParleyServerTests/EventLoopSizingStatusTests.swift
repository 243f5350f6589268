import Testing
@testable import ParleyServer

/// Reading the affinity mask from /proc/PID/status, as the kernel writes it.
@Suite struct EventLoopSizingStatusTests {
    @Test func countsTheBitsOfTheMask() {
        #expect(EventLoopSizing.allowedCPUs(status: "Name:\tparley\nCpus_allowed:\t1\nCpus_allowed_list:\t0\n") == 1)
        #expect(EventLoopSizing.allowedCPUs(status: "Cpus_allowed:\t3\n") == 2)
        #expect(EventLoopSizing.allowedCPUs(status: "Cpus_allowed:\tffffffff,ffffffff,00000000,0000000f\n") == 68)
        #expect(EventLoopSizing.allowedCPUs(status: "Cpus_allowed:\ta5\n") == 4)
    }

    @Test func refusesWhatItCannotRead() {
        #expect(EventLoopSizing.allowedCPUs(status: "Name:\tparley\n") == nil)
        #expect(EventLoopSizing.allowedCPUs(status: "Cpus_allowed:\t0\n") == nil)
        #expect(EventLoopSizing.allowedCPUs(status: "Cpus_allowed:\tzz\n") == nil)
        #expect(EventLoopSizing.allowedCPUs(status: "") == nil)
    }

    @Test func thisProcessMayRunSomewhere() throws {
        let allowed = try #require(EventLoopSizing.allowedCPUs())
        #expect(allowed >= 1)
    }
}
