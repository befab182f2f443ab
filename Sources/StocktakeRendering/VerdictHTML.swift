/// The box every page opens with: passed or failed and by which gate, then a few lines a reader acts on.
/// It comes before everything else so that the first screen answers "is this all right?" at any width.
public enum VerdictHTML {
    public enum Outcome: Sendable {
        case passed, failed
        /// No gate was set (`--fail-on never`, a diff without gates): the page states the facts only.
        case ungated
    }

    /// `headline` and each of `lines` are markup (callers escape what comes from the container).
    public static func render(_ outcome: Outcome, headline: HTML, lines: [HTML] = []) -> HTML {
        let (word, style): (HTML, String) =
            switch outcome {
            case .passed: ("Passed", "pass")
            case .failed: ("Failed", "fail")
            case .ungated: ("No gate", "none")
            }
        var html: HTML = "<section id=\"verdict\" class=\"verdict v-\(style)\" aria-label=\"Verdict\">\n"
        html += "<p class=\"v-head\"><strong class=\"v-word\">\(word)</strong> \(headline)</p>\n"
        if !lines.isEmpty {
            html += "<ul class=\"v-lines\">\n"
            for line in lines { html += "<li>\(line)</li>\n" }
            html += "</ul>\n"
        }
        return html + "</section>\n"
    }
}
