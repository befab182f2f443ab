/// Where an entry lives in the container, by its path relative to the container root (contract ids).
public enum Location: String, CaseIterable, Sendable, Codable {
    case documents  // Documents/**
    case applicationSupport  // Library/Application Support/**
    case caches  // Library/Caches/**
    case tmp  // tmp/**
    case preferences  // Library/Preferences/**
    case libraryOther  // the rest of Library/
    case systemData  // SystemData/**
    case other  // everything else: container root files, CloudKit/, …

    /// Human title used by the HTML report and the terminal summary.
    public var title: String {
        switch self {
        case .documents: "Documents"
        case .applicationSupport: "Application Support"
        case .caches: "Caches"
        case .tmp: "tmp"
        case .preferences: "Preferences"
        case .libraryOther: "Library (other)"
        case .systemData: "SystemData"
        case .other: "Other"
        }
    }

    /// Purgeable locations: the system may empty them; Settings does not count them in Documents & Data.
    public var isPurgeable: Bool { self == .caches || self == .tmp }
}
