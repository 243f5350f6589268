/// Best-effort zeroing of secrets (a PIN, a shared secret) once used; copies the compiler made are out of reach.
enum Wipe {
    static func value<T>(_ value: inout T) {
        withUnsafeMutableBytes(of: &value) { _ = $0.initializeMemory(as: UInt8.self, repeating: 0) }
    }

    static func bytes(_ bytes: inout [UInt8]) {
        bytes.withUnsafeMutableBytes { _ = $0.initializeMemory(as: UInt8.self, repeating: 0) }
    }
}
