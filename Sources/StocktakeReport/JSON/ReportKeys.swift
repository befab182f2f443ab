import StocktakeModel
import StocktakeRendering

/// report.json's keys, one enum per kind of object: the writer, the fast row writer, the reader and the diff
/// name keys only through these, and a test holds each enum to the properties Reports/report.schema.json
/// allows for its object. Keys that come from data (plist keys, group names, location and backup-state
/// ids) are not here. A new key is a new case, a schema property and a changelog line: the contract.
public enum ReportKeys {
    /// The document's top level.
    public enum Document: String, CaseIterable, Sendable, JSONKey {
        case appBundle, appGroups, baseline, budgets, container, contentCoverage, deviceBackup, directories, evidence,
            files, findings
        case generatedAt, groups, issues, kinds, schemaVersion, tool, totals
    }

    /// A row of `files[]` or `directories[]`.
    public enum Entry: String, CaseIterable, Sendable, JSONKey {
        case allocatedBytes, apparentBytes, backup, backupEvidence, escapesContainer, excludedBy, files, hardLink, kind
        case location, modified, path, rawExcludedBy, rawPath, rawSymlinkTarget, sparse, symlinkTarget, systemManaged
        case totalAllocatedBytes, totalApparentBytes, transportArtefact, type, unreadable
    }

    /// A size total (`totals.onDisk`, an app group's `size`, …).
    public enum SizeTotal: String, CaseIterable, Sendable, JSONKey { case allocatedBytes, apparentBytes, files }

    public enum Totals: String, CaseIterable, Sendable, JSONKey {
        case appData, appSize, backup, byLocation, directories, documentsAndData, onDisk, purgeable, transportArtefacts
    }

    public enum AppSize: String, CaseIterable, Sendable, JSONKey {
        case appGroupBytes, bundleBytes, containerWithoutCachesBytes, totalBytes
    }

    public enum Container: String, CaseIterable, Sendable, JSONKey {
        case allocatedBytesEstimated, archive, bundleIdentifier, bundleIdentifierCandidates, bundleIdentifierClues
        case bundleIdentifierSource, device, exportedAt, exportedAtSource, layout, metadata, path, root
    }

    /// `container.device`: the device an `audit --device` copied the container from.
    public enum Device: String, CaseIterable, Sendable, JSONKey {
        case copiedWith, identifier, model, name, osVersion, udid
    }

    public enum Archive: String, CaseIterable, Sendable, JSONKey { case compression, folder, format, path }

    /// An entry of `container.bundleIdentifierClues`.
    public enum IdentityClue: String, CaseIterable, Sendable, JSONKey { case agrees, identifier, path, source }

    /// A value of `container.metadata`.
    public enum MetadataDocument: String, CaseIterable, Sendable, JSONKey { case problem, value }

    public enum Evidence: String, CaseIterable, Sendable, JSONKey {
        case appleDoubleSidecars, carriesAttributes, declaredByUser, deviceBackup, entriesWithAttributes
        case flaggedByAppleDouble, flaggedByLegacyXattr, flaggedByXattr, summary
    }

    public enum Finding: String, CaseIterable, Sendable, JSONKey {
        case bytes, fingerprint, fix, message, path, rule, severity
    }

    public enum Issue: String, CaseIterable, Sendable, JSONKey { case detail, path, rawPath, reason }

    public enum Tool: String, CaseIterable, Sendable, JSONKey { case name, version }

    public enum AppBundle: String, CaseIterable, Sendable, JSONKey {
        case bundleIdentifier, fileSharingEnabled, infoPlist, opensDocumentsInPlace, path, size
    }

    public enum AppGroup: String, CaseIterable, Sendable, JSONKey { case identifier, matchedBy, path, size }

    public enum Budget: String, CaseIterable, Sendable, JSONKey { case actual, exceeded, limit, scope, unit }

    /// A value of `groups`.
    public enum Group: String, CaseIterable, Sendable, JSONKey { case members, pattern }

    public enum GroupMember: String, CaseIterable, Sendable, JSONKey {
        case allocatedBytes, apparentBytes, files, id, path
    }

    public enum DeviceBackup: String, CaseIterable, Sendable, JSONKey {
        case allocatedBytesEstimated, app, companions, date, notInExport, path, productVersion, role
    }

    /// `deviceBackup.app` and each of `deviceBackup.companions`.
    public enum BackupDomain: String, CaseIterable, Sendable, JSONKey {
        case allocatedBytes, apparentBytes, directories, domain, files, identifier, kind, symlinks
    }

    /// `contentCoverage`: what the content checks read (`inspected`, per store), passed over on purpose (`passedOver`:
    /// stores iOS's own frameworks make) and did not read (`skipped`, per reason).
    public enum ContentCoverage: String, CaseIterable, Sendable, JSONKey {
        case complete, inspected, passedOver, skipped
    }

    /// A value of `contentCoverage.inspected` and `contentCoverage.skipped`.
    public enum ContentCount: String, CaseIterable, Sendable, JSONKey { case bytes, files }

    public enum Baseline: String, CaseIterable, Sendable, JSONKey { case stale, suppressed }

    /// An entry of `baseline.stale`.
    public enum StaleEntry: String, CaseIterable, Sendable, JSONKey { case fingerprint, path, rule }
}
