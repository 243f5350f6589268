import ParleyClientFormats

/// Reads one of the client formats; bytes that are not one are, to the person, a message the client
/// "cannot decrypt" (`ClientError.cannotDecrypt`), whichever layer refused them.
func readable<T>(_ read: () throws(ClientFormatError) -> T) throws(ClientError) -> T {
    do { return try read() } catch { throw .cannotDecrypt }
}
