import Foundation

/// The system's reason for a failed file operation, for messages a user can act on.
package enum FileSystemReason {
    /// Foundation on Linux says "The operation could not be completed"; the POSIX error underneath (a `POSIXError`
    /// there, an `NSError` on macOS, so read as any error and bridged) says what happened.
    package static func of(_ error: Error) -> String {
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? any Error {
            let posix = underlying as NSError
            if posix.domain == NSPOSIXErrorDomain { return SystemError.text(Int32(posix.code)) }
        }
        return nsError.localizedDescription
    }
}
