import StocktakeReport

/// A diff compares two runs of one app. Two reports naming different bundle ids are most likely a mix-up
/// (the wrong folder, a shared reports root): the diff is still computed, but says so.
package enum SameAppCheck {
    /// One line naming both ids when the reports name two different apps; nil when they name the same one or
    /// either does not know its app (an ambiguous identity is no evidence of a mix-up).
    package static func mismatch(old: ReportSnapshot.Provenance, new: ReportSnapshot.Provenance) -> String? {
        guard let oldID = old.bundleIdentifier, let newID = new.bundleIdentifier, oldID != newID else { return nil }
        return "the reports are of two different apps: OLD \(old.source) is \(oldID), NEW \(new.source) is \(newID)"
    }
}
