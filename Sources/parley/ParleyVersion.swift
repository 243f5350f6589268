/// The version `parley --version` prints.
enum ParleyVersion {
    static let current = "0.1.0"
}
