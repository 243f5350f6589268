import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The real terminal: raw mode and the alternate screen, its size, drawing frames, reading keys.
///
/// Plain termios and ANSI escapes rather than ncurses: the renderer already produces whole lines, so
/// all the terminal has to do is position the cursor and write them; that keeps the binary free of a
/// system library and the restore path down to two async-signal-safe calls (see `TerminalGuard`).
public final class Terminal: Sendable {
    /// Why the terminal cannot be used.
    public struct Unavailable: Error, CustomStringConvertible {
        /// What to do instead.
        public let description: String
    }

    /// Switches standard input to raw mode and standard output to the alternate screen.
    public init() throws(Unavailable) {
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else {
            throw Unavailable(description: "'parley chat' needs a terminal; use 'parley read --follow' and 'parley send' in scripts")
        }
        var saved = termios()
        guard tcgetattr(STDIN_FILENO, &saved) == 0 else { throw Unavailable(description: "cannot read the terminal settings") }
        TerminalGuard.arm(saved: saved)
        var raw = saved
        // No echo, no line buffering, no Ctrl-C/Ctrl-Z signals (they arrive as keys), no CR→NL, 8-bit clean.
        raw.c_lflag &= ~tcflag_t(ECHO | ICANON | ISIG | IEXTEN)
        raw.c_iflag &= ~tcflag_t(IXON | ICRNL | BRKINT | INPCK | ISTRIP)
        raw.c_oflag &= ~tcflag_t(OPOST)
        raw.c_cflag |= tcflag_t(CS8)
        guard tcsetattr(STDIN_FILENO, TCSAFLUSH, &raw) == 0 else {
            TerminalGuard.restore()
            throw Unavailable(description: "cannot switch the terminal to raw mode")
        }
        // The alternate screen keeps the shell's scrollback untouched; leaving it brings the prompt back.
        write("\u{1B}[?1049h\u{1B}[H\u{1B}[2J")
    }

    /// Puts the terminal back (also done at exit and on crashes by `TerminalGuard`).
    func restore() {
        TerminalGuard.disarm()
    }

    /// Columns and rows now.
    func size() -> (width: Int, height: Int) {
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 else { return (80, 24) }
        return (Int(size.ws_col), Int(size.ws_row))
    }

    /// Draws a rendered screen in one write (so it never shows half-drawn), `clear` first after a resize.
    func draw(_ screen: RenderedScreen, clear: Bool) {
        var frame = "\u{1B}[?25l"
        if clear { frame += "\u{1B}[2J" }
        for (row, line) in screen.lines.enumerated() {
            frame += "\u{1B}[\(row + 1);1H" + line + "\u{1B}[K"
        }
        frame += "\u{1B}[\(screen.cursorRow + 1);\(screen.cursorColumn + 1)H\u{1B}[?25h"
        write(frame)
    }

    /// Writes all of `text` to standard output.
    func write(_ text: String) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.write(STDOUT_FILENO, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                return
            }
            bytes = bytes.dropFirst(written)
        }
    }

    /// Starts a thread that reads standard input and hands decoded keys to `deliver`; it ends at
    /// end of input. A dedicated thread, so a blocking `read` never holds a cooperative thread.
    static func startReading(deliver: @escaping @Sendable ([Key]) -> Void, ended: @escaping @Sendable () -> Void) {
        let thread = Thread {
            var decoder = KeyDecoder()
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                // With an unfinished escape sequence pending, wait briefly: if nothing follows it was the Escape key.
                var poller = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
                let ready = poll(&poller, 1, decoder.hasPending ? 50 : -1)
                if ready == 0 {
                    deliver(decoder.flush())
                    continue
                }
                if ready < 0 {
                    if errno == EINTR { continue }
                    break
                }
                let count = buffer.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR || errno == EAGAIN { continue }
                guard count > 0 else { break }
                let keys = decoder.feed(buffer[..<count])
                if !keys.isEmpty { deliver(keys) }
            }
            ended()
        }
        thread.name = "parley-chat-input"
        thread.start()
    }
}
