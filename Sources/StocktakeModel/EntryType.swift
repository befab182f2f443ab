/// The file-system type of an entry, from `lstat` (symlinks are never followed).
public enum EntryType: UInt8, CaseIterable, Sendable {
    case file, directory, symlink, fifo, socket, characterDevice, blockDevice, unknown

    /// The case's name (contract values), worked out once: writers ask for it per entry.
    public var name: String { Self.names[Int(rawValue)] }
    private static let names = allCases.map { "\($0)" }
}
