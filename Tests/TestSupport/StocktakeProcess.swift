import Foundation

/// Runs a command (by default the built `stocktake` binary) and captures what it printed and its exit status.
package struct ProcessResult: Sendable {
    package let status: Int32
    package let stdout: String
    package let stderr: String
    /// True when the run outlived its `timeout` and was killed: a hang, reported instead of hanging the tests.
    package let timedOut: Bool
}

package enum StocktakeProcess {
    package struct Refused: Error, CustomStringConvertible, Sendable {
        package let description: String
    }

    /// The built `stocktake` binary: `$STOCKTAKE_BINARY`, else beside the test bundle (see `BinaryLookup`). Throws,
    /// saying what was tried, when there is none: a `stocktake` on `PATH` is never run in its place.
    package static var binary: String {
        get throws { try located.get() }
    }

    private static let located = BinaryLookup.locate(
        arguments: CommandLine.arguments, environment: ProcessInfo.processInfo.environment,
        currentDirectory: FileManager.default.currentDirectoryPath,
        isExecutableFile: BinaryLookup.isExecutableRegularFile)

    /// Runs `stocktake` with `arguments`. With `withoutFilePermissionOverride`, a root caller drops the
    /// capabilities that let root read any file, so permission tests mean the same for root and users.
    package static func run(
        _ arguments: [String], currentDirectory: String? = nil, environment: [String: String] = [:],
        withoutFilePermissionOverride: Bool = false, timeout: Double? = nil
    ) throws -> ProcessResult {
        var command = [try binary] + arguments
        if withoutFilePermissionOverride && getuid() == 0 {
            #if os(Linux)
                command = ["/usr/bin/setpriv", "--bounding-set=-dac_override,-dac_read_search"] + command
            #else
                // No setpriv here: root would read every file, and the permission test would mean nothing.
                throw Refused(
                    description:
                        "a permission test run as root needs util-linux setpriv (Linux); run the tests as a user")
            #endif
        }
        return try runCommand(command, currentDirectory: currentDirectory, environment: environment, timeout: timeout)
    }

    /// With `timeout` (seconds), a command still running then is killed (SIGKILL) and `timedOut` is set.
    package static func runCommand(
        _ command: [String], currentDirectory: String? = nil, environment: [String: String] = [:],
        timeout: Double? = nil
    ) throws -> ProcessResult {
        let process = Process()
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        process.executableURL = URL(fileURLWithPath: command[0].hasPrefix("/") ? command[0] : "/usr/bin/env")
        process.arguments = command[0].hasPrefix("/") ? Array(command.dropFirst()) : command
        if let currentDirectory { process.currentDirectoryURL = URL(fileURLWithPath: currentDirectory) }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let killed = Killed(pid: process.processIdentifier)
        if let timeout {
            DispatchQueue.global().asyncAfter(deadline: .now() + timeout) { killed.killIfRunning() }
        }
        // Read both pipes before waiting so a chatty child cannot block on a full pipe.
        let group = DispatchGroup()
        nonisolated(unsafe) var outData = Data()
        nonisolated(unsafe) var errData = Data()
        DispatchQueue.global().async(group: group) { outData = out.fileHandleForReading.readDataToEndOfFile() }
        errData = err.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        killed.finished()
        return ProcessResult(
            status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self), timedOut: killed.happened)
    }
}

/// Kills a child that outlived its timeout, once, and remembers whether it did.
private final class Killed: @unchecked Sendable {
    private let pid: Int32
    private let lock = NSLock()
    private var running = true
    private var value = false

    init(pid: Int32) { self.pid = pid }

    func killIfRunning() {
        lock.withLock {
            guard running else { return }
            value = true
            kill(pid, SIGKILL)
        }
    }

    func finished() { lock.withLock { running = false } }
    var happened: Bool { lock.withLock { value } }
}
