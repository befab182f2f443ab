/// Where an entry lives in the container, by its path relative to the container root (contract ids).
public enum Location: String, CaseIterable, Sendable, Codable {
    case documents            // Documents/**
    case applicationSupport   // Library/Application Support/**
    case caches               // Library/Caches/**
    case tmp                  // tmp/**
    case preferences          // Library/Preferences/**
    case libraryOther         // the rest of Library/
    case systemData           // SystemData/**
    case other                // everything else: container root files, CloudKit/, …

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

extension Location {
    /// The contract's location table (docs/reports.md, "Locations"), from a path relative to the container root
    /// given as its components; only the first two matter.
    public init(relativePath components: some Sequence<some Collection<UInt8>>) {
        var first: String?, second: String?
        for (index, component) in components.prefix(2).enumerated() {
            if index == 0 { first = String(decoding: component, as: UTF8.self) } else { second = String(decoding: component, as: UTF8.self) }
        }
        switch (first, second) {
        case ("Documents", _): self = .documents
        case ("tmp", _): self = .tmp
        case ("SystemData", _): self = .systemData
        case ("Library", "Application Support"): self = .applicationSupport
        case ("Library", "Caches"): self = .caches
        case ("Library", "Preferences"): self = .preferences
        case ("Library", _): self = .libraryOther
        default: self = .other
        }
    }
}
