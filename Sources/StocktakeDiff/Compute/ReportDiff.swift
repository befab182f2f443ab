import StocktakeModel
import StocktakePolicy
import StocktakeReport

/// What changed between two reports of the same app: the document every diff writer renders
/// (text, Markdown, JSON, HTML). Built by `ReportDiff.compute(old:new:options:)`.
package struct ReportDiff: Sendable {
    package let old: ReportSnapshot.Provenance
    package let new: ReportSnapshot.Provenance
    /// `onDisk`, `documentsAndData`, `purgeable` and one row per backup state, in that order.
    package let totals: [SizeChange]
    /// One row per location, in `Location.allCases` order (ids are the location ids).
    package let locations: [SizeChange]
    /// Folders whose subtree changed, largest absolute allocated delta first, cut to `options.directoryLimit`.
    package let directories: ListHead<SizeChange>
    package let files: FileChanges
    /// Per group (by name, sorted), its members old against new.
    package let groups: [GroupChange]
    /// Budgets by scope (sorted), old against new; either side may lack one.
    package let budgets: [BudgetChange]
    package let findings: FindingChanges
    /// Both reports as one tree, for the HTML treemap of where the bytes grew; nil when `DiffOptions.growthMap` is off.
    package var growth: GrowthTree? = nil
}

/// A row with figures on both sides. A side that lacks the row (a new file, a removed folder) is nil.
package struct SizeChange: Sendable, Equatable {
    /// A location or total id, a path, a group member id.
    package let id: String
    package let old: SizeTotal?
    package let new: SizeTotal?
    /// For files and folders: where the entry lives (the new side's location when both have it).
    package let location: Location?

    package init(id: String, old: SizeTotal?, new: SizeTotal?, location: Location? = nil) {
        (self.id, self.old, self.new, self.location) = (id, old, new, location)
    }

    package var oldOrZero: SizeTotal { old ?? .zero }
    package var newOrZero: SizeTotal { new ?? .zero }
    // Saturating: figures from a foreign report never trap, and never wrap into a change of the wrong sign.
    package var allocatedDelta: Int64 { newOrZero.allocatedBytes.saturatingSubtract(oldOrZero.allocatedBytes) }
    package var apparentDelta: Int64 { newOrZero.apparentBytes.saturatingSubtract(oldOrZero.apparentBytes) }
    package var filesDelta: Int { newOrZero.files.saturatingSubtract(oldOrZero.files) }
}

/// The head of a long list, sorted by what matters most, and what was left out ("N others").
package struct ListHead<Element: Sendable>: Sendable {
    package let shown: ArraySlice<Element>
    package let othersCount: Int
    package let othersAllocatedDelta: Int64
}

/// Files added, removed, changed in size, moved, and copied while the original stayed.
/// Each list is complete (JSON lists every row) and sorted by absolute allocated delta, largest first,
/// then by path; writers for people show the head of each.
package struct FileChanges: Sendable {
    package let added: [SizeChange]
    package let removed: [SizeChange]
    package let changed: [SizeChange]
    package let moved: [FileMove]
    /// Added files that look like a copy of a file still present at its old path: a migration that
    /// forgot to delete the original (the "abandoned files" risk).
    package let leftBehind: [FileMove]
}

/// A file that sits at a new path in the new report and matched one at another path in the old one.
package struct FileMove: Sendable, Equatable {
    /// Why the two paths are taken for one file.
    package enum Evidence: String, Sendable {
        /// Same file name, size and kind; the only such pair.
        case sameNameAndSize
        /// Same size, kind and modification time (a rename keeps both); the only such pair.
        case sameSizeAndModified
    }

    package let oldPath: String
    package let newPath: String
    package let oldLocation: Location
    package let newLocation: Location
    package let old: SizeTotal
    package let new: SizeTotal
    package let evidence: Evidence
}

/// One configured group (`groups:` in stocktake.yml) on both sides; members sorted by absolute
/// allocated delta, largest first.
package struct GroupChange: Sendable {
    package let name: String
    package let members: [SizeChange]
}

/// One budget scope on both sides.
package struct BudgetChange: Sendable, Equatable {
    package let scope: String
    package let old: ReportSnapshot.Budget?
    package let new: ReportSnapshot.Budget?
}

/// Findings matched by fingerprint: new ones (only in the new report), resolved ones (only in the old).
package struct FindingChanges: Sendable {
    /// Most severe first, then by rule and path.
    package let new: [ReportSnapshot.FindingRecord]
    package let resolved: [ReportSnapshot.FindingRecord]
    /// Findings present on both sides (same fingerprint).
    package let unchanged: Int
}

/// One `--fail-on-growth` or `--fail-on-new-findings` gate, evaluated: what it asked and what it saw.
package struct DiffGateResult: Sendable, Equatable {
    /// The gate as the user wrote it, e.g. `applicationSupport:10%`, `new findings >= warning`.
    package let gate: String
    package let tripped: Bool
    /// One line for people, e.g. "applicationSupport grew 12.5% (limit 10%)".
    package let message: String
    /// Where a tripped gate points in the container, for the treemap's outline; empty when it names no place.
    package var places: [GatePlace] = []
}

/// A place a gate is about: everything in a location, or one path.
package enum GatePlace: Sendable, Equatable {
    case location(Location)
    case path(String)
}
