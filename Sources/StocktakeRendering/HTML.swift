import StocktakeModel

/// Markup, safe by construction. A string literal is markup (it is the page's own source); text interpolated into it
/// is escaped; only another `HTML` value passes through as markup. So a writer that forgets to escape does not
/// compile, and `HTML.raw` is the one greppable way in for markup built elsewhere from our own constants. Literals
/// are taken as `StaticString`, which only the compiler makes from a literal in our source: `HTML(stringLiteral:)`
/// cannot be handed text read at run time.
///
///     let row: HTML = "<tr><td>\(name: entryName)</td><td class=\"num\">\(count)</td></tr>\n"
public struct HTML: Sendable, Hashable, ExpressibleByStringInterpolation, CustomStringConvertible {
    /// The page's text.
    public private(set) var markup: String

    public init(stringLiteral literal: StaticString) { markup = literal.description }

    public init(stringInterpolation: Interpolation) { markup = stringInterpolation.markup }

    private init(markup: String) { self.markup = markup }

    public static let empty: HTML = ""

    /// Markup the caller vouches for: the pages' own CSS and script, colours from `ReportPalette`, numbers formatted
    /// here. Never text that came from a container, a report or a user.
    public static func raw(_ trusted: String) -> HTML { HTML(markup: trusted) }

    /// Text as content or as a quoted attribute value (see `escape`).
    public static func text(_ text: String) -> HTML { HTML(markup: escape(text)) }

    /// A file or path name as a reader should see it: invalid UTF-8 becomes U+FFFD (`PathText.display`), and what
    /// `VisibleText` replaces shows in its `html` style (a newline as ␊; a bidirectional control, which could make
    /// `exe.txt` read as `txt.exe`, as U+FFFD).
    public static func name(_ bytes: some Collection<UInt8>) -> HTML {
        HTML(markup: escape(VisibleText.render(PathText.display(bytes), as: .html)))
    }

    /// A `/`-separated path from the container, each component shown as by `name`, with a line-break opportunity
    /// after every separator so long paths wrap between folders rather than inside names.
    public static func path(_ bytes: [UInt8]) -> HTML {
        bytes.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).map { name($0) }.joined(
            separator: "/<wbr>")
    }

    /// `name` for text already decoded (plist strings shown on one line, such as a bundle identifier).
    public static func visible(_ text: String) -> HTML { HTML(markup: escape(VisibleText.render(text, as: .html))) }

    public static func + (left: HTML, right: HTML) -> HTML { HTML(markup: left.markup + right.markup) }

    public static func += (left: inout HTML, right: HTML) { left.markup += right.markup }

    public var isEmpty: Bool { markup.isEmpty }

    public var description: String { markup }

    /// Builds markup from literals (markup) and interpolated values: `String` escaped, `HTML` as it is, integers as
    /// digits, `name:`, `path:` and `visible:` as their static functions show them.
    public struct Interpolation: StringInterpolationProtocol {
        var markup: String

        public init(literalCapacity: Int, interpolationCount: Int) {
            markup = ""
            markup.reserveCapacity(literalCapacity + interpolationCount * 8)
        }

        public mutating func appendLiteral(_ literal: StaticString) { markup += literal.description }

        public mutating func appendInterpolation(_ html: HTML) { markup += html.markup }

        public mutating func appendInterpolation(_ text: String) { markup += HTML.escape(text) }

        /// Digits and a sign need no escaping.
        public mutating func appendInterpolation(_ number: some BinaryInteger) { markup += String(number) }

        public mutating func appendInterpolation(name bytes: some Collection<UInt8>) {
            markup += HTML.name(bytes).markup
        }

        public mutating func appendInterpolation(path bytes: [UInt8]) { markup += HTML.path(bytes).markup }

        public mutating func appendInterpolation(visible text: String) { markup += HTML.visible(text).markup }
    }

    /// Escapes for text content and for double- or single-quoted attribute values alike, so one function cannot be
    /// used in the wrong context. Characters HTML forbids in a document become U+FFFD.
    static func escape(_ text: String) -> String {
        String(escaping: text.unicodeScalars) { scalar, output in
            switch scalar {
            case "&": output += "&amp;"
            case "<": output += "&lt;"
            case ">": output += "&gt;"
            case "\"": output += "&quot;"
            case "'": output += "&#39;"
            case "\t", "\n": output.unicodeScalars.append(scalar)
            case "\r": output += "\n"  // a bare CR is a line break to a reader, and a parse-time oddity to HTML
            default: output.unicodeScalars.append(isForbidden(scalar) ? "\u{FFFD}" : scalar)
            }
        }
    }

    /// Controls other than tab and newline, and noncharacters: parse errors in HTML.
    private static func isForbidden(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if value < 0x20 || (0x7F...0x9F).contains(value) { return true }
        if (0xFDD0...0xFDEF).contains(value) { return true }
        return value & 0xFFFE == 0xFFFE
    }
}

extension Sequence where Element == HTML {
    /// The elements one after another, `separator` between each two.
    public func joined(separator: HTML = .empty) -> HTML {
        var result = HTML.empty
        for (index, element) in enumerated() {
            if index > 0 { result += separator }
            result += element
        }
        return result
    }
}
