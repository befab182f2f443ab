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

    static let css: HTML = """
        section.verdict{border-left:6px solid #9ca3af;padding:14px 20px}
        section.verdict.v-pass{border-left-color:#16a34a;background:#f0fdf4}
        section.verdict.v-fail{border-left-color:#dc2626;background:#fef2f2}
        .v-head{margin:0;font-size:16px;overflow-wrap:anywhere}
        .v-word{font-size:18px;margin-right:6px}
        .v-pass .v-word{color:#166534}
        .v-fail .v-word{color:#991b1b}
        ul.v-lines{margin:8px 0 0;padding-left:18px}
        ul.v-lines li{margin:0 0 6px;overflow-wrap:anywhere}
        """
}
