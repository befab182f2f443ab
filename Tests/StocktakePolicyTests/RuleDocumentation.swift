import StocktakeModel
import StocktakePolicy

/// docs/policy.md's rule table and its section per rule, rendered from `RuleRegistry` (as swift-format renders
/// its rule documentation from its rules), so the document says what the code does.
enum RuleDocumentation {
    static let tableMarkers = (
        begin:
            "<!-- rules:begin: generated from RuleRegistry by RuleDocumentationTests; STOCKTAKE_RECORD_GOLDEN=1 rewrites it -->",
        end: "<!-- rules:end -->"
    )
    static let detailMarkers = (
        begin:
            "<!-- rule-details:begin: generated from RuleRegistry by RuleDocumentationTests; STOCKTAKE_RECORD_GOLDEN=1 rewrites it -->",
        end: "<!-- rule-details:end -->"
    )

    /// One row per rule: the id (linking to its section), the default severity, what it finds, options, references.
    static func table(_ rules: [any Rule.Type] = RuleRegistry.all) -> String {
        var lines = ["| id | default | finds | options | references |", "|---|---|---|---|---|"]
        for rule in rules {
            let rule = rule.description
            var severity = rule.defaultSeverity.rawValue
            if let note = rule.severityNote { severity += " (\(note))" }
            if rule.isOptIn { severity += ", **opt-in**" }
            let options = rule.options.map { "`\($0.name): \($0.defaultValue)`" }.joined(separator: ", ")
            let cells = [
                "[`\(rule.id)`](#\(rule.id))", severity, cell(rule.finds), options,
                rule.references.joined(separator: ", "),
            ]
            lines.append("| " + cells.joined(separator: " | ") + " |")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A section per rule: its title and rationale, options with their meaning, the fix and the sources.
    static func details(_ rules: [any Rule.Type] = RuleRegistry.all) -> String {
        rules.map { rule in
            let rule = rule.description
            var parts = ["### `\(rule.id)`", wrapped("**\(text(rule.title)).** \(text(rule.rationale))")]
            if !rule.options.isEmpty {
                parts.append(
                    rule.options.map {
                        wrapped("- `\($0.name): \($0.defaultValue)`: \(text($0.meaning))", indent: "  ")
                    }.joined(separator: "\n"))
            }
            parts.append(wrapped("Fix: \(text(rule.fix))"))
            parts.append(
                wrapped(
                    "Sources: "
                        + rule.source.split(whereSeparator: \.isWhitespace).filter { $0 != ";" }.map(source).joined(
                            separator: " ")))
            return parts.joined(separator: "\n\n")
        }.joined(separator: "\n\n") + "\n"
    }

    /// A word of a rule's `source`: a URL as a link (a `;` after it kept outside), other words as text.
    static func source(_ word: Substring) -> String {
        guard word.hasPrefix("http") else { return text(String(word)) }
        let url = word.hasSuffix(";") ? word.dropLast() : word
        return "<\(url)>" + (url.count < word.count ? ";" : "")
    }

    /// Text as Markdown shows it: a `<` outside code spans is escaped (`<Application_Home>` is no HTML tag).
    static func text(_ plain: String) -> String {
        plain.split(separator: "`", omittingEmptySubsequences: false).enumerated().map { index, part in
            index % 2 == 0 ? part.replacingOccurrences(of: "<", with: "&lt;") : String(part)
        }.joined(separator: "`")
    }

    /// Text inside a table cell: a `|` would end the cell.
    static func cell(_ plain: String) -> String {
        text(plain).replacingOccurrences(of: "|", with: "\\|")
    }

    /// Wrapped at `width` columns like the hand-written text around it; a word that would start a line as Markdown
    /// structure (`-`, `#`, `>`, `1.`, …) stays on the line before.
    static func wrapped(_ paragraph: String, width: Int = 115, indent: String = "") -> String {
        var lines: [String] = []
        var line = ""
        for word in paragraph.split(separator: " ") {
            if !line.isEmpty, line.count + 1 + word.count > width, !startsMarkdownBlock(word) {
                lines.append(line)
                line = indent + word
            } else {
                line += (line.isEmpty ? "" : " ") + word
            }
        }
        return (lines + [line]).joined(separator: "\n")
    }

    static func startsMarkdownBlock(_ word: Substring) -> Bool {
        guard let first = word.first else { return false }
        return "-+*>#|=".contains(first)
            || (first.isNumber && word.dropFirst().allSatisfy { $0.isNumber || $0 == "." || $0 == ")" }
                && word.count > 1)
    }
}
