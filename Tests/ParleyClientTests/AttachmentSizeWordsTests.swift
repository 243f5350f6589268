@testable import ParleyClient
import Testing

/// What a person is told about a file's size against a limit (found by an outside probe: a 64 MiB − 4 KiB file was
/// "67104768 bytes, over the limit of 62914560 bytes", and with the cap raised the server's refusal read "at most
/// 64.0 MiB once encrypted, and this one is 64.0 MiB encrypted").
@Suite("Client: file sizes in words")
struct AttachmentSizeWordsTests {
    @Test func theDefaultLimitIsTheLargestFileADefaultServerTakes() {
        let largest = AttachmentOptions.defaultMaximumSize
        #expect(AttachmentFormat.ciphertextSize(plaintextSize: largest) <= 64 << 20)
        #expect(AttachmentFormat.ciphertextSize(plaintextSize: largest + 1) > 64 << 20)
        #expect(AttachmentOptions().maximumSize == largest)
        // Limits smaller than an empty file's encrypted form, and exact chunk boundaries.
        #expect(AttachmentFormat.largestPlaintext(ciphertextAtMost: 0) == 0)
        #expect(AttachmentFormat.largestPlaintext(ciphertextAtMost: -5) == 0)
        let oneChunk = AttachmentFormat.ciphertextSize(plaintextSize: Int64(AttachmentFormat.chunkSize))
        #expect(AttachmentFormat.largestPlaintext(ciphertextAtMost: oneChunk) == Int64(AttachmentFormat.chunkSize))
        #expect(AttachmentFormat.largestPlaintext(ciphertextAtMost: oneChunk + 16) == Int64(AttachmentFormat.chunkSize))
    }

    @Test func aFileOverALimitNeverReadsAsTheLimitsSize() {
        let file: Int64 = (64 << 20) - 4096
        let tooLarge = AttachmentError.tooLarge(size: file, limit: AttachmentOptions.defaultMaximumSize).description
        #expect(tooLarge.hasPrefix("the file is 63.99 MiB, over the limit of 63.98 MiB; nothing was uploaded"), "\(tooLarge)")
        #expect(tooLarge.contains("--max-size"))
        let encrypted = AttachmentFormat.ciphertextSize(plaintextSize: file)
        let server = AttachmentError.overServerLimit(size: encrypted, limit: 64 << 20).description
        #expect(server.hasPrefix("the server takes files of at most 64.00 MiB once encrypted, and this one is 64.01 MiB encrypted"), "\(server)")
        #expect(server.hasSuffix("(it takes a file of at most 63.98 MiB)"), "\(server)")
        // One byte over: the bytes themselves, where no three decimals tell them apart.
        #expect(AttachmentError.tooLarge(size: 1_000_001, limit: 1_000_000).description
                .hasPrefix("the file is 0.953 MiB (1000001 bytes), over the limit of 0.953 MiB (1000000 bytes)"))
        #expect(AttachmentError.mebibytes(1 << 20) == "1.0 MiB" && AttachmentError.mebibytes((1 << 20) + 5, decimals: 3) == "1.000 MiB")
    }
}
