import StocktakeModel
import StocktakePolicy
import StocktakeRendering
import StocktakeReport

/// The top of the diff page: the gates' outcome, how much the container grew and where, and the worst new
/// findings with their rules' fixes.
extension HTMLDiffWriter {
    func verdict() -> HTML {
        let tripped = gates.filter(\.tripped)
        let outcome: VerdictHTML.Outcome = gates.isEmpty ? .ungated : tripped.isEmpty ? .passed : .failed
        var headline: HTML =
            switch outcome {
            case .ungated: "(no <code>--fail-on-growth</code> or <code>--fail-on-new-findings</code> given). "
            case .failed: "\(Plural.count(tripped.count, "gate")) of \(gates.count) tripped. "
            case .passed: "\(Plural.count(gates.count, "gate")) passed. "
            }
        headline += growthLine()
        var lines: [HTML] = tripped.map { "<code>\(visible: $0.gate)</code>: \(visible: $0.message)" }
        let new = diff.findings.new
        let counts = Severity.allCases.reversed().compactMap { severity -> String? in
            let count = new.count { $0.severity == severity }
            return count == 0 ? nil : HTMLFormatting.count(count, severity.rawValue)
        }
        lines.append(
            "New findings: \(counts.isEmpty ? "none" : counts.joined(separator: " · ")); "
                + "\(HTMLFormatting.grouped(diff.findings.resolved.count)) resolved.")
        for finding in worstNew() {
            let rule = RuleRegistry.rule(id: finding.rule)?.description
            let path = finding.path.isEmpty ? "(container root)" : HTML.path(Array(finding.path.utf8))
            var line: HTML = "<span class=\"tag sev-\(finding.severity.rawValue)\">\(finding.severity.rawValue)</span> "
            line += "<strong>\(rule?.title ?? finding.rule)</strong>: <span class=\"path\">\(path)</span>"
            if let fix = rule?.fix { line += "<div class=\"fix\"><strong>Fix:</strong> \(visible: fix)</div>" }
            lines.append(line)
        }
        return VerdictHTML.render(outcome, headline: headline, lines: lines)
    }

    /// "+254 KB (+4.7%) on disk, mostly Library/Caches/VideoThumbnails (+102 KB), …".
    private func growthLine() -> HTML {
        let total = diff.total(ReportDiff.totalID(.onDisk))
        let (old, new) = (total.oldOrZero.allocatedBytes, total.newOrZero.allocatedBytes)
        // The change first, then what it is of: the figure's name is followed by its own value everywhere else.
        var html: HTML = "\(HTMLDiffPieces.delta(total.allocatedDelta)) (\(Percent.change(old: old, new: new))) on disk"
        let folders = foldersThatGrewMost()
        guard total.allocatedDelta > 0, !folders.isEmpty else { return html + "." }
        html += ", mostly "
        html += folders.map {
            "<span class=\"path\">\(path: Array($0.id.utf8))</span> (\(HTMLDiffPieces.delta($0.allocatedDelta)))"
                as HTML
        }.joined(separator: ", ")
        return html + "."
    }

    /// One new finding per rule, most severe first: at most three.
    private func worstNew() -> [ReportSnapshot.FindingRecord] {
        var seen = Set<String>()
        return diff.findings.new.filter { seen.insert($0.rule).inserted }.prefix(ReportVerdict.worstShown).map { $0 }
    }

    /// "+254 KB, mostly Library/Application Support/Models, …": where a diff's growth went, in the folders a
    /// reader would open. An ancestor grows by as much as any folder inside it, so a folder stands in for its
    /// ancestor when it holds at least half of the ancestor's growth.
    private func foldersThatGrewMost(_ count: Int = 3) -> [SizeChange] {
        let largestFirst = { (a: SizeChange, b: SizeChange) in (a.allocatedDelta, b.id) > (b.allocatedDelta, a.id) }
        var picked: [SizeChange] = []
        let grown = diff.directories.shown.filter { $0.allocatedDelta > 0 }.sorted(by: largestFirst)
        for folder in grown {
            if let outer = picked.firstIndex(where: { Self.contains($0.id, folder.id) }) {
                if folder.allocatedDelta >= picked[outer].allocatedDelta - folder.allocatedDelta {
                    picked[outer] = folder
                }
            } else if !picked.contains(where: { Self.contains(folder.id, $0.id) }), picked.count < count {
                picked.append(folder)
            }
        }
        return picked.sorted(by: largestFirst)
    }

    /// Whether the folder at `outer` holds `inner` (paths relative to the container root, `/`-separated).
    private static func contains(_ outer: String, _ inner: String) -> Bool {
        outer.isEmpty || inner.hasPrefix(outer + "/")
    }
}
