/// How a command ends when it does not succeed: the exit status (a contract, docs/usage.md, "Exit status") and the
/// one line to say on stderr. Commands throw it; the executable prints it and exits in one place.
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
    /// What to print (already made visible by whoever prints it); empty when the command said it already.
    let message: String
    /// The message keeps its own line breaks (a configuration error with the YAML line and a caret).
    let isMultiline: Bool
    /// A message of several lines, one element each (a refusal listing its candidates): each printed as its own
    /// line and made visible on its own, so a line break inside a name from the input stays escaped inside
    /// its line while the message's own line breaks are printed as such. Empty for a one-line message.
    let lines: [String]

    init(_ status: Status, _ message: String, isMultiline: Bool = false) {
        self.status = status
        self.message = message
        self.isMultiline = isMultiline
        lines = []
    }

    /// A message given as its lines (see `lines`).
    init(_ status: Status, lines: [String]) {
        self.status = status
        message = lines.joined(separator: "\n")
        isMultiline = lines.count > 1
        self.lines = lines.count > 1 ? lines : []
    }

    /// Policy failures are not errors: the run succeeded and says why it fails the pipeline.
    var isError: Bool { status != .policyFailure }
}
