/// The page's inline style sheet and its one inline script. They are files of their own (`Style/`), compiled into
/// the binary, so they read as CSS and JavaScript and reach the page byte for byte: the script is allowed by the
/// Content-Security-Policy through its SHA-256 (taken of `script.markup`).
public enum ReportStyle {
    /// The pages' style sheet, the verdict box's included (`VerdictHTML`).
    public static let css = file(PackageResources.report_css)

    /// Progressive enhancement only: sortable columns, expand/collapse of the tree, and opening the tree for
    /// printing. It marks `<html data-enhanced="true">` so a test can tell the policy let it run.
    public static let script = file(PackageResources.report_js)

    /// One of our own files as markup, without the newline that ends it.
    public static func file(_ bytes: [UInt8]) -> HTML {
        HTML.raw(String(decoding: bytes.last == UInt8(ascii: "\n") ? bytes.dropLast() : bytes[...], as: UTF8.self))
    }
}
