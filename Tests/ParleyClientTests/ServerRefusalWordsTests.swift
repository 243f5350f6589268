import ParleyClient
import ParleyWire
import Testing

/// A refusal of something the person typed names it in their words, not the wire's field name.
@Suite struct ServerRefusalWordsTests {
    @Test func aFieldIsNamedInThePersonsWords() {
        let mixed = ClientError.server(.invalid("email", "must not mix Latin and Cyrillic letters in one part of the address"))
        #expect(mixed.description == "the server refused: the e-mail address must not mix Latin and Cyrillic letters in one part of the address")
        #expect(ClientError.server(.invalid("display_name", "must not be empty")).description == "the server refused: the name must not be empty")
        #expect(ClientError.server(.missing("email")).description == "the server refused: the e-mail address is required")
        // An address in a list is one address, not "field 'members[0]'".
        #expect(ClientError.server(.invalid("members[0]", "must not contain spaces")).description == "the server refused: the address must not contain spaces")
        #expect(ClientError.server(.invalid("members[12]", "is you; you are a member already")).description
                == "the server refused: the address is you; you are a member already")
        // The other fields a person types or picks on the command line.
        #expect(ClientError.server(.invalid("code", "is not 6 digits")).description == "the server refused: the code is not 6 digits")
        #expect(ClientError.server(.invalid("invite", "is too long")).description == "the server refused: the invitation code is too long")
        #expect(ClientError.server(.invalid("emoji", "is not one emoji")).description == "the server refused: the reaction is not one emoji")
        #expect(ClientError.server(.invalid("name", "must not be empty")).description == "the server refused: the device name must not be empty")
        // A profile field inside the request's object, and the numbers typed to name something.
        #expect(ClientError.server(.invalid("fields.username.value", "must be 3–32 characters")).description
                == "the server refused: the username must be 3–32 characters")
        #expect(ClientError.server(.invalid("fields.email", "must be the address this account registered with")).description
                == "the server refused: the e-mail address must be the address this account registered with")
        #expect(ClientError.server(.invalid("device_id", "must be between 1 and 4294967295")).description
                == "the server refused: the device number must be between 1 and 4294967295")
        #expect(ClientError.server(.invalid("message_id", "must be between 1 and 9223372036854775807")).description
                == "the server refused: the message number must be between 1 and 9223372036854775807")
    }

    @Test func otherRefusalsAreUnchanged() {
        #expect(ClientError.server(.invalid("spk_signature", "does not verify")).description == "the server refused: field 'spk_signature' does not verify")
        #expect(ClientError.server(WireError(.notFound, "field 'email' is not a field")).description == "the server refused: field 'email' is not a field")
        #expect(ClientError.server(WireError(.invalidField, "field 'email")).description == "the server refused: field 'email")
        #expect(ClientError.server(WireError(.invalidField, "field '")).description == "the server refused: field '")
        #expect(ClientError.server(.invalid("members[x]", "is odd")).description == "the server refused: field 'members[x]' is odd")
        #expect(ClientError.server(.invalid("envelopes[2].ciphertext", "is not base64")).description
                == "the server refused: field 'envelopes[2].ciphertext' is not base64")
    }
}
