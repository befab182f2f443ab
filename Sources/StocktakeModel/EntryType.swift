/// The file-system type of an entry, from `lstat` (symlinks are never followed).
public enum EntryType: UInt8, CaseIterable, Sendable {
    case file, directory, symlink, fifo, socket, characterDevice, blockDevice, unknown

    public var name: String {
        switch self {
        case .file: "file"
        case .directory: "directory"
        case .symlink: "symlink"
        case .fifo: "fifo"
        case .socket: "socket"
        case .characterDevice: "characterDevice"
        case .blockDevice: "blockDevice"
        case .unknown: "unknown"
        }
    }
}
