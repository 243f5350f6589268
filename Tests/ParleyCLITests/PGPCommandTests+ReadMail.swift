import Foundation
import Testing

/// `parley pgp read-mail --password`: PGP/MIME mail encrypted to a password only.
extension PGPCommandTests {
    @Test func readMailEncryptedToAPassword() async throws {
        try write("body.txt", Data("The gate code is 4711.\n".utf8))
        try write("password", Data("a password for the mail\n".utf8))
        try write("wrong-password", Data("not the password\n".utf8))
        let encrypted = try await pgp(["encrypt", "--password-file", path("password"), "--armor", "-o", path("body.asc"), path("body.txt")])
        #expect(encrypted.status == 0, "\(encrypted.stderr)")
        let armored = String(decoding: try read("body.asc"), as: UTF8.self).replacingOccurrences(of: "\n", with: "\r\n")
        try write("mail.eml", Data("""
            From: Bob <bob@example.org>\r
            Subject: by password\r
            MIME-Version: 1.0\r
            Content-Type: multipart/encrypted; protocol="application/pgp-encrypted"; boundary="b"\r
            \r
            --b\r
            Content-Type: application/pgp-encrypted\r
            \r
            Version: 1\r
            --b\r
            Content-Type: application/octet-stream; name="encrypted.asc"\r
            \r
            \(armored)\r
            --b--\r

            """.utf8))

        let opened = try await pgp(["read-mail", "--password-file", path("password"), path("mail.eml")])
        let text = String(decoding: opened.stdout, as: UTF8.self)
        #expect(opened.status == 0, "\(opened.stderr)")
        #expect(text.contains("── decrypted") && text.contains("The gate code is 4711."), "\(text)")
        let fromEnvironment = try await pgp(["read-mail", "--password", path("mail.eml")], environment: ["PARLEY_PGP_PASSWORD": "a password for the mail"])
        #expect(String(decoding: fromEnvironment.stdout, as: UTF8.self).contains("The gate code is 4711."), "\(fromEnvironment.stderr)")

        // Without the password the reader says what to pass; a wrong one is named as such. Neither shows the text.
        let without = String(decoding: try await pgp(["read-mail", path("mail.eml")]).stdout, as: UTF8.self)
        #expect(without.contains("encrypted with a password") && without.contains("--password"), "\(without)")
        let wrong = String(decoding: try await pgp(["read-mail", "--password-file", path("wrong-password"), path("mail.eml")]).stdout, as: UTF8.self)
        #expect(wrong.contains("wrong password"), "\(wrong)")
        for output in [without, wrong] {
            #expect(!output.contains("4711") && !output.contains("a password for the mail") && !output.contains("not the password"))
        }
    }
}
