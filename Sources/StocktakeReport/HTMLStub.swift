// TEMPORARY stand-in until the HTML writer lands.
public struct HTMLReportWriter: Sendable {
    public init() {}
    public func render(_ report: Report) -> String { "<!doctype html><title>Stocktake</title>" }
}
