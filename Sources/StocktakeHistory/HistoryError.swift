/// Why the history could not be opened, read or written, worded for the person running the job.
package struct HistoryError: Error, Sendable, CustomStringConvertible {
    package enum Kind: Sendable, Equatable {
        /// The file does not exist (and was not to be created).
        case missing
        /// The file is not an SQLite database, or a database of something else.
        case notAHistoryStore
        /// A newer stocktake wrote the store: its schema is beyond what this one knows.
        case newerSchema
        /// The server cannot be reached: refused, unknown host, timed out, closed the connection.
        case unreachable
        /// The server refused who we are: a wrong password, an unknown user, no access to the database.
        case refused
        /// The store failed (I/O, permissions, a lock held past the busy timeout, a server error, …).
        case failed
    }

    /// How the store is named in messages: a file's path as given, or a server address without its password.
    package let store: String
    package let kind: Kind
    /// What went wrong and what to do, as a phrase following "history store <store>".
    package let message: String

    package init(store: String, kind: Kind, message: String) {
        (self.store, self.kind, self.message) = (store, kind, message)
    }

    package var description: String { "history store \(store) \(message)" }
}
