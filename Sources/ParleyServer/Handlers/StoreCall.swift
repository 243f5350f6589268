import ParleyWire

/// Runs a store call and turns its failure into a response error.
enum StoreCall {
    static func call<T>(_ context: ServerContext, _ body: () async throws -> T) async throws(WireError) -> T {
        do {
            return try await body()
        } catch let error as WireError {
            throw error
        } catch {
            throw AuthHandlers.storeFailure(error, context)
        }
    }
}
