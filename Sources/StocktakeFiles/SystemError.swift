#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The calling thread's `errno` and the system's words for it ("Permission denied"): the one place
/// that calls `strerror`, so every message about a failed system call reads the same.
package enum SystemError {
    /// The `errno` of the last failed call on this thread.
    package static var current: Int32 {
        get { errno }
        set { errno = newValue }
    }

    /// `strerror`'s text for `code`, e.g. "No such file or directory".
    package static func text(_ code: Int32) -> String {
        guard let message = strerror(code) else { return "error \(code)" }
        return String(cString: message)
    }

    package static var currentText: String { text(current) }
}
