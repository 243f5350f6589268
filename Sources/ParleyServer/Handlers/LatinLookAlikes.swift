/// Greek and Cyrillic small letters that look like one Latin letter, and that letter: each lower-case Greek or
/// Cyrillic letter whose prototype in Unicode's confusables data (UTS #39 `confusables.txt`, as the
/// confusable_homoglyphs 3.3.1 package ships it) is a single ASCII letter. Registration uses it to refuse a part of an
/// address written only in such letters (`асе@example.org`, which reads as ace@example.org): a whole-script
/// look-alike, as browsers refuse to show such a domain name as it is.
enum LatinLookAlikes {
    static let letter: [Unicode.Scalar: Character] = [
        "\u{37A}": "i",  // greek ypogegrammeni
        "\u{3B1}": "a",  // greek small letter alpha
        "\u{3B3}": "y",  // greek small letter gamma
        "\u{3B9}": "i",  // greek small letter iota
        "\u{3BD}": "v",  // greek small letter nu
        "\u{3BF}": "o",  // greek small letter omicron
        "\u{3C1}": "p",  // greek small letter rho
        "\u{3C3}": "o",  // greek small letter sigma
        "\u{3C5}": "u",  // greek small letter upsilon
        "\u{3F1}": "p",  // greek rho symbol
        "\u{3F2}": "c",  // greek lunate sigma symbol
        "\u{3F3}": "j",  // greek letter yot
        "\u{430}": "a",  // cyrillic small letter a
        "\u{433}": "r",  // cyrillic small letter ghe
        "\u{435}": "e",  // cyrillic small letter ie
        "\u{43E}": "o",  // cyrillic small letter o
        "\u{440}": "p",  // cyrillic small letter er
        "\u{441}": "c",  // cyrillic small letter es
        "\u{443}": "y",  // cyrillic small letter u
        "\u{445}": "x",  // cyrillic small letter ha
        "\u{455}": "s",  // cyrillic small letter dze
        "\u{456}": "i",  // cyrillic small letter byelorussian-ukrainian i
        "\u{458}": "j",  // cyrillic small letter je
        "\u{461}": "w",  // cyrillic small letter omega
        "\u{475}": "v",  // cyrillic small letter izhitsa
        "\u{4AF}": "y",  // cyrillic small letter straight u
        "\u{4BB}": "h",  // cyrillic small letter shha
        "\u{4BD}": "e",  // cyrillic small letter abkhasian che
        "\u{4CF}": "i",  // cyrillic small letter palochka
        "\u{501}": "d",  // cyrillic small letter komi de
        "\u{51B}": "q",  // cyrillic small letter qa
        "\u{51D}": "w",  // cyrillic small letter we
        "\u{1FBE}": "i",  // greek prosgegrammeni
    ]

    /// The Latin text `part` reads as, when every letter of it is a Greek or Cyrillic look-alike (digits, hyphens and
    /// the like kept as they are); nil when it has a letter that looks like no Latin one, or no letter at all.
    static func reading(of part: Substring) -> String? {
        var latin = ""
        var letters = 0
        for scalar in part.unicodeScalars {
            if let look = letter[scalar] {
                latin.append(look)
                letters += 1
            } else if scalar.properties.isAlphabetic {
                return nil
            } else {
                latin.unicodeScalars.append(scalar)
            }
        }
        return letters > 0 ? latin : nil
    }
}
