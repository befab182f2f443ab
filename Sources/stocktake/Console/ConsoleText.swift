import StocktakeModel

/// Text for the terminal. Names from containers, inboxes and reports are attacker-controlled: every line
/// goes through `visible`, so a name can neither drive the terminal (ESC, BEL, CR) nor start a line of its
/// own (a forged `::error` workflow command, which GitHub Actions reads from stdout and stderr alike).
enum ConsoleText {
    /// One line as the terminal shows it (`VisibleText`'s terminal style: `\x1b`, `\u{202e}`).
    static func visible(_ line: String) -> String { VisibleText.render(line, as: .terminal) }

    /// The progress line drawn while walking: entries, bytes, rate.
    static func progress(entries: Int, bytes: Int64, seconds: Double) -> String {
        let rate = Int(Double(entries) / max(seconds, 0.001))
        return "scanning: \(Plural.count(entries, "entry", "entries")), \(ByteCount.format(bytes)), \(rate) entries/s"
    }
}
