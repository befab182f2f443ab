import Foundation
import StocktakeFiles

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs `devicectl` through the `xcrun` on PATH (where tests put a stand-in), never through a shell, each run bounded
/// by a timeout; answers are read from its `--json-output FILE`.
package final class DeviceControl: @unchecked Sendable {
    package let xcrun: String
    /// Seconds a listing may take; a copy may take `copyTimeout`.
    let timeout: Double
    let copyTimeout: Double
    private let lock = NSLock()
    private var running: Process?
    private var stopped = false

    package init(
        environment: [String: String] = ProcessInfo.processInfo.environment, timeout: Double = 60,
        copyTimeout: Double = 3600
    ) throws(DeviceError) {
        let folders = (environment["PATH"] ?? "").split(separator: ":").map(String.init).filter { !$0.isEmpty }
        guard
            let found = folders.map({ Paths.join($0, "xcrun") }).first(where: {
                var info = stat()
                return stat($0, &info) == 0 && info.st_mode & S_IFMT == S_IFREG && access($0, X_OK) == 0
            })
        else { throw .noXcrun }
        xcrun = found
        self.timeout = timeout
        self.copyTimeout = copyTimeout
    }

    /// Kills the run under way and lets no other start: a signal handler calls it before it removes the copy.
    package func stop() {
        lock.withLock {
            stopped = true
            if let running, running.isRunning { kill(running.processIdentifier, SIGKILL) }
        }
    }

    /// `devicectl ARGUMENTS --json-output FILE`: its result, decoded, or its error as devicectl worded it.
    func run<Result: Decodable>(
        _ arguments: [String], decoding: Result.Type, timeout: Double? = nil, scratch: PrivateFolder
    ) throws(DeviceError) -> Result? {
        let shown = "xcrun devicectl " + arguments.joined(separator: " ")
        let output = Paths.join(scratch.path, "answer-\(UUID().uuidString).json")
        let errors = Paths.join(scratch.path, "stderr-\(UUID().uuidString).txt")
        let status = try launch(
            ["devicectl"] + arguments + ["--json-output", output], errors: errors, shown: shown,
            timeout: timeout ?? self.timeout)
        defer {
            unlink(output)
            unlink(errors)
        }
        let data = Self.read(output).map { Data($0) }
        let envelope = data.flatMap { try? JSONDecoder().decode(DevicectlOutput.Envelope<Result>.self, from: $0) }
        if let failure = envelope?.error { throw .devicectl(command: shown, message: failure.message) }
        guard status == 0 else {
            throw .devicectl(command: shown, message: Self.lastLines(of: errors) ?? "exit status \(status)")
        }
        guard let data else { throw .malformedOutput(command: shown, missing: "no JSON file was written") }
        guard let envelope else {
            // Say what is wrong: not JSON at all, or which field the shape lacks.
            do {
                _ = try JSONDecoder().decode(DevicectlOutput.Envelope<Result>.self, from: data)
            } catch let DecodingError.keyNotFound(key, context) {
                throw .malformedOutput(command: shown, missing: Self.path(context.codingPath + [key]) + " is missing")
            } catch let DecodingError.typeMismatch(_, context) {
                throw .malformedOutput(command: shown, missing: Self.path(context.codingPath) + " has the wrong type")
            } catch {
                throw .malformedOutput(command: shown, missing: "it is not JSON")
            }
            throw .malformedOutput(command: shown, missing: "it is not JSON")
        }
        return envelope.result
    }

    private func launch(_ arguments: [String], errors: String, shown: String, timeout: Double) throws(DeviceError)
        -> Int32
    {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: xcrun)
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        guard FileManager.default.createFile(atPath: errors, contents: nil, attributes: [.posixPermissions: 0o600]),
            let errorFile = FileHandle(forWritingAtPath: errors)
        else { throw .couldNotRun(command: shown, reason: "cannot write into \(errors)") }
        defer { try? errorFile.close() }
        process.standardError = errorFile
        let done = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in done.signal() }
        do {
            try lock.withLock {
                guard !stopped else { throw CancellationError() }
                try process.run()
                running = process
            }
        } catch is CancellationError {
            throw .couldNotRun(command: shown, reason: "the audit was interrupted")
        } catch {
            throw .couldNotRun(command: shown, reason: "\(xcrun): \(error.localizedDescription)")
        }
        defer { lock.withLock { running = nil } }
        if done.wait(timeout: .now() + timeout) == .timedOut {
            kill(process.processIdentifier, SIGKILL)
            done.wait()
            throw .couldNotRun(command: shown, reason: "it ran for more than \(Int(timeout)) seconds and was stopped")
        }
        if process.terminationReason == .uncaughtSignal {
            throw .couldNotRun(command: shown, reason: "it was killed by signal \(process.terminationStatus)")
        }
        return process.terminationStatus
    }

    /// The end of what the tool printed on stderr, for a failure its JSON did not explain.
    private static func lastLines(of path: String) -> String? {
        guard let data = read(path) else { return nil }
        let lines = String(decoding: data.suffix(4096), as: UTF8.self).split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        return lines.isEmpty ? nil : lines.suffix(3).joined(separator: " ")
    }

    /// A file devicectl wrote (at most 64 MiB: a listing of thousands of apps is a few MiB).
    private static func read(_ path: String) -> [UInt8]? {
        var options = RegularFile.Options.named(maxBytes: 64 << 20)
        return try? RegularFile.open(path, options: &options).readAll()
    }

    private static func path(_ keys: [any CodingKey]) -> String {
        keys.map { $0.intValue.map { "[\($0)]" } ?? "." + $0.stringValue }.joined().drop { $0 == "." }.description
    }
}
