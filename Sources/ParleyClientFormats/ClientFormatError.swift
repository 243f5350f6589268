/// Bytes that are not one of the client formats (docs/CLIENT.md §2–3): a truncated, altered or foreign envelope,
/// retry request or content. The client tells a person it "cannot decrypt" such a message.
public enum ClientFormatError: Error, Sendable, Equatable {
    case unreadable
}
