#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The thread's `errno` and its words ("Permission denied"): the one place that calls `strerror`, so every message
/// about a failed system call reads the same.
package enum SystemError {
    package static var current: Int32 {
        get { errno }
        set { errno = newValue }
    }

    package static func text(_ code: Int32) -> String {
        guard let message = strerror(code) else { return "error \(code)" }
        return String(cString: message)
    }

    package static var currentText: String { text(current) }
}
