import ParleyServer
import ParleyWire
import Testing

/// The server serves exactly the typed API: no method the registry lacks, none it forgot.
@Suite("Router and registry")
struct RouterRegistryTests {
    @Test("the standard router serves every method of ParleyWire's registry, and only those")
    func sameMethods() {
        #expect(RequestRouter.standard.methods == API.methods.map { $0.name }.sorted())
    }
}
