/// Why the history store could not be opened, read or written, worded for the person running the job.
package struct HistoryError: Error, Sendable, CustomStringConvertible {
    package enum Kind: Sendable, Equatable {
        /// The file does not exist (and was not to be created).
        case missing
        /// The file is not an SQLite database, or an SQLite database of something else.
        case notAHistoryStore
        /// A newer stocktake wrote the file: its schema is beyond what this one knows.
        case newerSchema
        /// SQLite failed (I/O, permissions, a lock held past the busy timeout, …).
        case failed
    }

    /// The store's path, as given.
    package let path: String
    package let kind: Kind
    /// What went wrong and what to do, as a phrase following "history store <path>".
    package let message: String

    package var description: String { "history store \(path) \(message)" }
}
