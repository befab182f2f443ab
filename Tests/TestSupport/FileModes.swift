import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs code where file modes bind, as they do for every user but root: root's capabilities
/// (`CAP_DAC_OVERRIDE`, `CAP_DAC_READ_SEARCH`) open a file of mode 000 anyway, so a test of what an unreadable
/// file gives would pass for the wrong reason or not at all. Linux keeps capabilities per thread (`capset`
/// changes only the calling thread), so as root the code runs on a thread of its own with those two dropped
/// from its effective set: the kernel then checks the mode bits, exactly as for anyone else. The rest of the
/// process keeps its capabilities. Elsewhere root has no such per-thread switch. (The binary, run as a child,
/// drops them with setpriv instead: `StocktakeProcess.run(_:withoutFilePermissionOverride:)`.)
package enum FileModes {
    /// Whether `binding` can run its code where modes bind: not root, or root on Linux.
    package static let enforceable: Bool = {
        #if os(Linux)
            return true
        #else
            return geteuid() != 0
        #endif
    }()

    package static let hint: Comment =
        "runs as root on a system where root's override of file modes cannot be dropped per thread; CI=true turns this skip into a failure"

    package struct Failure: Error, CustomStringConvertible {
        package let description: String
    }

    /// `body`'s result, computed where file modes bind (on this thread when not root).
    package static func binding<T: Sendable>(_ body: @escaping @Sendable () -> T) throws -> T {
        guard geteuid() == 0 else { return body() }
        #if os(Linux)
            return try onThreadWithoutOverride(body)
        #else
            throw Failure(
                description:
                    "running as root: file modes do not bind, and this system cannot drop root's override for one thread"
            )
        #endif
    }

    #if os(Linux)
        /// `capget`/`capset(cap_user_header_t, cap_user_data_t)`: glibc exports both, no header of it declares them.
        private typealias CapabilityCall = @convention(c) (UnsafeMutableRawPointer, UnsafeMutableRawPointer) -> Int32
        /// `_LINUX_CAPABILITY_VERSION_3`: two 32-bit words per set.
        private static let version3: UInt32 = 0x2008_0522
        private static let overrides: UInt32 = 1 << 1 | 1 << 2  // CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH

        private final class Outcome<T: Sendable>: @unchecked Sendable {
            let done = DispatchSemaphore(value: 0)
            var value: Result<T, Failure>?
        }

        private static func onThreadWithoutOverride<T: Sendable>(_ body: @escaping @Sendable () -> T) throws -> T {
            let process = dlopen(nil, RTLD_NOW)
            guard let get = dlsym(process, "capget"), let set = dlsym(process, "capset") else {
                throw Failure(description: "capget/capset not found in the C library")
            }
            let capget = unsafeBitCast(get, to: CapabilityCall.self)
            let capset = unsafeBitCast(set, to: CapabilityCall.self)
            let outcome = Outcome<T>()
            let thread = Thread {
                defer { outcome.done.signal() }
                // header: version, pid 0 (this thread); data: effective, permitted, inheritable for bits 0-31, then 32-63.
                var header: [UInt32] = [version3, 0]
                var data = [UInt32](repeating: 0, count: 6)
                let dropped = header.withUnsafeMutableBytes { header in
                    data.withUnsafeMutableBytes { data -> Bool in
                        guard capget(header.baseAddress!, data.baseAddress!) == 0 else { return false }
                        data.storeBytes(of: data.load(as: UInt32.self) & ~overrides, as: UInt32.self)
                        return capset(header.baseAddress!, data.baseAddress!) == 0
                    }
                }
                guard dropped else {
                    outcome.value = .failure(
                        Failure(description: "capset could not drop root's override of file modes (errno \(errno))"))
                    return
                }
                outcome.value = .success(body())
                // Raised again from the permitted set, though the thread ends here.
                data[0] |= data[1] & overrides
                _ = header.withUnsafeMutableBytes { header in
                    data.withUnsafeMutableBytes { capset(header.baseAddress!, $0.baseAddress!) }
                }
            }
            thread.start()
            outcome.done.wait()
            return try outcome.value!.get()
        }
    #endif
}
