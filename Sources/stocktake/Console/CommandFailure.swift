import ArgumentParser

/// How a command ends when it does not succeed: the exit status (a contract, docs/usage.md, "Exit status") and the
/// lines to say on stderr. Commands throw it; the executable prints it and exits in one place.
struct CommandFailure: Error, Sendable, Equatable {
    enum Status: Int32, Sendable {
        /// Could not run: input missing, unreadable, not a container; a report unreadable; output not writable.
        case couldNotRun = 1
        /// Ran, and the policy failed: a finding at or above `--fail-on`, a budget, a diff gate.
        case policyFailure = 2
        /// A bad flag, configuration key, rule id or gate spec.
        case usage = 64
        /// Another nightly run holds the lock.
        case locked = 75
    }

    let status: Status
    /// What to print, one element a line (a refusal listing its candidates), each made visible on its own: a line
    /// break inside a name from the input stays escaped inside its line. Empty when the command said it already.
    let lines: [String]

    /// `isMultiline`: the message keeps its own line breaks (a configuration error with the YAML line and a caret).
    init(_ status: Status, _ message: String, isMultiline: Bool = false) {
        let lines =
            isMultiline ? message.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) : [message]
        self.init(status, lines: message.isEmpty ? [] : lines)
    }

    init(_ status: Status, lines: [String]) { (self.status, self.lines) = (status, lines) }

    var message: String { lines.joined(separator: "\n") }

    /// Policy failures are not errors: the run succeeded and says why it fails the pipeline.
    var isError: Bool { status != .policyFailure }
}

/// A usage error (exit 64, followed by the usage lines) unless `condition` holds.
func require(_ condition: Bool, _ message: @autoclosure () -> String) throws(ValidationError) {
    guard condition else { throw ValidationError(message()) }
}

/// What `work` returns; its error, if any, is a failure to run (exit 1) that says what the error says.
func attempt<T>(_ work: () throws -> T) throws(CommandFailure) -> T {
    do { return try work() } catch { throw CommandFailure(.couldNotRun, "\(error)") }
}
