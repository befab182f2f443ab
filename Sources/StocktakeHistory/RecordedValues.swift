import StocktakeModel
import StocktakePolicy

/// What a history accepts, checked on a run about to be recorded and on a row read back, so that both stores hold the
/// same runs and nothing made of them (sums, the index, the metrics) meets a value it cannot handle.
package enum RecordedValues {
    /// Distinct rules in one run: the policy has a few dozen.
    package static let maxRules = 1_000
    /// Findings of one rule at one severity: far beyond a real run, far below where sums of them could overflow.
    package static let maxFindingCount = 1 << 40
    /// Recorded durations: up to a year of seconds.
    package static let maxDurationSeconds = 366.0 * 86_400
    package static let years = 1970...9999

    /// A value that is only shown (a version), with what no store keeps (a NUL) or page prints (controls) replaced by
    /// U+FFFD, cut to `limit` bytes.
    package static func displayText(_ text: String, limit: Int = 256) -> String {
        var output = String.UnicodeScalarView()
        var bytes = 0
        for scalar in text.unicodeScalars {
            let shown: Unicode.Scalar = VisibleText.isReplaced(scalar) ? "\u{FFFD}" : scalar
            bytes += UTF8.width(shown)
            guard bytes <= limit else { break }
            output.append(shown)
        }
        return String(output)
    }

    /// Why `text` cannot be a recorded string of at most `limit` bytes (`what` names it), or nil.
    static func problem(_ what: String, _ text: String, limit: Int) -> String? {
        guard text.utf8.count <= limit else { return "\(what) is \(text.utf8.count) bytes long (at most \(limit))" }
        guard let bad = text.unicodeScalars.first(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
        else { return nil }
        return "\(what) \(VisibleText.quoted(text)) holds the control character U+\(hex(bad.value))"
    }

    /// Why `runID` cannot name a run: it sorts the app's runs and names a folder in the nightly layout.
    package static func problem(withRunID runID: String) -> String? {
        guard !runID.isEmpty, runID.utf8.count <= 128 else { return "a run id has 1 to 128 characters" }
        guard runID != ".", runID != "..",
            runID.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "/") && $0 != UInt8(ascii: "\\") })
        else { return "a run id is printable ASCII without spaces or slashes (such as 2026-11-21T020000Z)" }
        return nil
    }

    /// Why `generatedAt` is not a time the history can sort and the metrics can state, or nil.
    package static func problem(withGeneratedAt text: String) -> String? {
        let year = Int(text.prefix(4)) ?? 0
        guard text.utf8.count <= 30, ISO8601Seconds.parse(text) != nil, years.contains(year) else {
            return
                "generatedAt \(VisibleText.quoted(text)) is not a UTC time from \(years.lowerBound) to \(years.upperBound) such as 2026-11-21T02:00:00Z (at most 9 digits of fraction)"
        }
        return nil
    }

    /// Why `text` cannot be where a run's report is: an absolute path, or an address `ReportAddress` accepts.
    static func problem(withReportLocation text: String) -> String? {
        if text.hasPrefix("/") { return problem("its report folder's path", text, limit: 4096) }
        return ReportAddress.problem(text).map { "its report address \($0)" }
    }

    private static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}

extension HistoryRun {
    /// What makes this run unfit for a history, as a phrase ("its generatedAt '…' is not a UTC time …"), or nil.
    package var problem: String? {
        typealias V = RecordedValues
        var problems: [String?] = [
            V.problem("its app", bundleIdentifier, limit: 255),
            bundleIdentifier.isEmpty ? "its app has no name" : nil,
            RunSeries.problem(withSourceName: source).map { "its source: \($0)" },
            V.problem(withRunID: runID).map { "its run id \(VisibleText.quoted(runID)): \($0)" },
            V.problem(withGeneratedAt: generatedAt).map { "its \($0)" },
            V.problem("its tool version", toolVersion, limit: 256),
            appVersion.flatMap { V.problem("its app version", $0, limit: 256) },
            recordedBy.flatMap { V.problem("the machine that recorded it", $0, limit: 255) },
            reportLocation.flatMap(V.problem(withReportLocation:)),
        ]
        if let seconds = durationSeconds, !(0...V.maxDurationSeconds).contains(seconds) {
            problems.append("its duration \(seconds) is not 0 to \(Int(V.maxDurationSeconds)) seconds")
        }
        let sizes: [(String, SizeTotal)] =
            [("on disk", onDisk), ("documents and data", documentsAndData), ("purgeable", purgeable)]
            + Location.allCases.map { ($0.rawValue, byLocation[$0] ?? .zero) }
        for (name, total) in sizes where total.files < 0 || total.apparentBytes < 0 || total.allocatedBytes < 0 {
            problems.append("its \(name) total has a negative size or count")
        }
        if backedUpBytes < 0 || excludedBytes < 0 || unknownBackupBytes < 0 {
            problems.append("its backup totals are negative")
        }
        let counts = Array(findingsBySeverity.values) + findings.map(\.count)
        if counts.contains(where: { !(0...V.maxFindingCount).contains($0) }) {
            problems.append("a finding count is not 0 to \(V.maxFindingCount)")
        }
        let rules = Set(findings.map(\.rule))
        if rules.count > V.maxRules { problems.append("it names \(rules.count) rules (at most \(V.maxRules))") }
        problems.append(
            rules.lazy.compactMap { $0.isEmpty ? "a rule id is empty" : V.problem("a rule id", $0, limit: 128) }.first)
        return problems.compactMap { $0 }.first
    }
}

/// A report folder's address (`record --report-url`), checked when recorded by the rule the index links with.
package enum ReportAddress {
    /// Why `text` is not an `http(s)://host/path` address of printable ASCII without what an attribute or a URL parser
    /// could read differently, nor a query or fragment (the index appends `/report.html`).
    package static func problem(_ text: String) -> String? {
        guard let scheme = ["https://", "http://"].first(where: { text.hasPrefix($0) }) else {
            return "\(VisibleText.quoted(text)) is not an http:// or https:// address"
        }
        let rest = text.dropFirst(scheme.count)
        guard text.utf8.count <= 2048 else { return "is \(text.utf8.count) bytes long (at most 2048)" }
        let unsafe: Set<UInt8> = Set("\"'<>\\`{}|^ ".utf8)
        guard text.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && !unsafe.contains($0) }) else {
            return "\(VisibleText.quoted(text)) holds a space, a quote, a control character or one of < > \\ ` { } | ^"
        }
        guard !text.contains("?"), !text.contains("#") else {
            return "\(VisibleText.quoted(text)) has a query or a fragment: give the report folder's own address"
        }
        guard let host = rest.split(separator: "/", omittingEmptySubsequences: false).first, !host.isEmpty else {
            return "\(VisibleText.quoted(text)) names no host"
        }
        return nil
    }

    /// `text` without its trailing `/`, when it is an address `problem` accepts.
    package static func normalized(_ text: String) -> String? {
        guard problem(text) == nil else { return nil }
        var trimmed = Substring(text)
        while trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        return String(trimmed)
    }
}
