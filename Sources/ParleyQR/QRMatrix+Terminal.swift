extension QRMatrix {
    /// The code drawn with half-block characters, two module rows per text line, with a light quiet zone
    /// `margin` modules wide.
    ///
    /// Light modules are drawn (`█`, `▀`, `▄`) and dark ones left blank, so on a terminal with a dark
    /// background the code appears dark-on-light, as scanners expect (the same choice as `qrencode -t UTF8`).
    public func terminalText(margin: Int = 2) -> String {
        let span = -margin..<(size + margin)
        var lines: [String] = []
        for top in stride(from: -margin, to: size + margin, by: 2) {
            var line = ""
            for x in span {
                let upperLight = !self[x: x, y: top]
                let lowerLight = top + 1 < size + margin ? !self[x: x, y: top + 1] : false
                switch (upperLight, lowerLight) {
                case (true, true): line.append("█")
                case (true, false): line.append("▀")
                case (false, true): line.append("▄")
                case (false, false): line.append(" ")
                }
            }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }
}
