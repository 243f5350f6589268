/// The version `parley --version` and `parley-file --version` print.
public enum ParleyVersion {
    public static let current = "0.1.0"
}
