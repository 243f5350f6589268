import Testing
@testable import ParleyPGP

/// HTML bodies become safe text: nothing runs, nothing is fetched, links stay visible.
struct MailHTMLTests {
    @Test func scriptsStylesAndRemoteContentAreDropped() {
        let html = """
            <html><head><title>T</title><style>body{background:url(https://x.example/bg)}</style></head>
            <body onload="steal()"><SCRIPT type="text/javascript">document.write('<p>evil</p>')</SCRIPT>
            <p>Visible&nbsp;text</p><iframe src="https://x.example/frame">fallback</iframe>
            <img src="https://x.example/track.gif"><img src="cid:logo" alt="Logo &amp; co">
            <!-- <p>commented out</p> --></body></html>
            """
        #expect(HTMLText.render(html) == "Visible text\n[Logo & co]")
    }

    @Test func linksAndEntities() {
        #expect(HTMLText.render("<a href='https://example.org/?a=1&amp;b=2'>Click</a> &lt;b&gt; &#233;&#x20AC; &bogus; & alone")
                == "Click <https://example.org/?a=1&b=2> <b> é€ &bogus; & alone")
        // A link whose text is its address is not repeated.
        #expect(HTMLText.render("<a href=\"https://example.org\">https://example.org</a>") == "https://example.org")
        #expect(HTMLText.render("<ul><li>one</li><li>two</li></ul><br>end") == "- one\n- two\nend")
    }

    @Test func brokenHTMLNeverFails() {
        #expect(HTMLText.render("<script>never closed <p>hidden") == "")
        #expect(HTMLText.render("text <b unclosed") == "text")
        #expect(HTMLText.render("a <!-- unclosed comment") == "a")
        #expect(HTMLText.render("&#xFFFFFFFF; &#99999999999;") == "&#xFFFFFFFF; &#99999999999;")
        var random = SystemRandomNumberGenerator()
        let alphabet = Array("<>/=\"'&;#x ascriptstyle-!\n")
        for _ in 0..<500 {
            let html = String((0..<Int.random(in: 0...200, using: &random)).map { _ in alphabet.randomElement(using: &random)! })
            _ = HTMLText.render(html)
        }
    }

    @Test func attachmentNamesAreMadeSafeToSave() {
        func safe(_ name: String?) -> String { MailAttachment(name: name, mediaType: "x/y", data: []).safeName }
        #expect(safe("../../etc/passwd") == "passwd")
        #expect(safe("C:\\Windows\\evil.exe") == "evil.exe")
        #expect(safe("..hidden\u{0}\u{7}name.txt") == "hiddenname.txt")
        #expect(safe(nil) == "attachment")
        #expect(safe("/") == "attachment")
        #expect(safe("résumé.pdf") == "résumé.pdf")
        #expect(safe(String(repeating: "a", count: 300) + ".txt").utf8.count == 200)
    }
}
