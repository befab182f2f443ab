/// Reading GitHub-flavoured Markdown tables back, for tests of the Markdown writers.
package enum MarkdownTable {
    /// Pipes that end a GFM table cell (those not escaped with a backslash).
    package static func cellSeparators(_ line: Substring) -> Int {
        var count = 0
        var escaped = false
        for character in line {
            if character == "|" && !escaped { count += 1 }
            escaped = character == "\\" && !escaped
        }
        return count
    }

}
