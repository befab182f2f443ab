import StocktakeBackup
import StocktakeScan

/// What an input path is, as `audit` decides it (`AuditInput`): the one answer the nightly job asks of its inbox.
public enum InputKind: Sendable, Equatable {
    case deviceBackup
    /// A regular file that starts as an archive Stocktake reads (or cannot be opened: its audit then says why).
    case archive
    /// A regular file that is no archive: a note or a README beside the exports.
    case otherFile
    /// A folder (a container, or whatever the audit then finds it is not), or nothing at all.
    case folder

    public static func of(_ path: String) -> InputKind {
        if BackupFolder.looksLikeBackup(path) { return .deviceBackup }
        guard ArchiveInput.isArchiveCandidate(path) else { return .folder }
        return ArchiveInput.startsAsArchive(path) ? .archive : .otherFile
    }
}
