import StocktakeModel

/// What a directory means for the entries inside it: their location, whether iOS ever backs them up,
/// whether iOS manages them. Computed from the parent's zone and the name, so no path is re-parsed.
struct Zone: Sendable, Equatable {
    enum Kind: Sendable, Equatable { case root, library, caches, cachesChild, plain }

    let kind: Kind
    let location: Location
    /// iOS never backs this place up (Caches, tmp, SplashBoard, SystemData, …).
    let excludedBySystem: Bool
    let systemManaged: Bool
    /// Inside `__MACOSX/`: transport metadata, not app data.
    let transport: Bool

    static let root = Zone(kind: .root, location: .other, excludedBySystem: true, systemManaged: false, transport: false)

    /// The classification of a child called `name`; for a directory it is also the zone of its own children.
    func child(named name: UnsafeBufferPointer<UInt8>, isDirectory: Bool) -> Zone {
        switch kind {
        case .root: return Zone.rootChild(name, isDirectory: isDirectory)
        case .library: return Zone.libraryChild(name, parent: self)
        case .caches:
            if isDirectory {
                if name.elementsEqual("Snapshots".utf8) { return inherit(kind: .plain, systemManaged: true) }
                return inherit(kind: .cachesChild)
            }
            return inherit(kind: .plain)
        case .cachesChild:
            // NSURLCache keeps Cache.db and fsCachedData/ in Caches/<bundle id>/.
            let urlCache = name.starts(with: "Cache.db".utf8) || name.elementsEqual("fsCachedData".utf8)
            return inherit(kind: .plain, systemManaged: urlCache)
        case .plain: return inherit(kind: .plain)
        }
    }

    private func inherit(kind: Kind, location: Location? = nil, excluded: Bool = false, systemManaged: Bool = false) -> Zone {
        Zone(
            kind: kind, location: location ?? self.location, excludedBySystem: excludedBySystem || excluded,
            systemManaged: self.systemManaged || systemManaged, transport: transport)
    }

    private static func rootChild(_ name: UnsafeBufferPointer<UInt8>, isDirectory: Bool) -> Zone {
        func zone(_ kind: Kind, _ location: Location, excluded: Bool, managed: Bool = false, transport: Bool = false) -> Zone {
            Zone(kind: kind, location: location, excludedBySystem: excluded, systemManaged: managed, transport: transport)
        }
        switch String(decoding: name, as: UTF8.self) {
        case "Documents": return zone(.plain, .documents, excluded: false)
        case "Library": return zone(.library, .libraryOther, excluded: false)
        case "tmp": return zone(.plain, .tmp, excluded: true)
        case "SystemData": return zone(.plain, .systemData, excluded: true, managed: true)
        // The backup agent's roots are Documents, Library and GeoJSON; everything else at the root is skipped.
        case "GeoJSON": return zone(.plain, .other, excluded: false)
        case "__MACOSX": return zone(.plain, .other, excluded: true, transport: true)
        case ".com.apple.mobile_container_manager.metadata.plist": return zone(.plain, .other, excluded: true, managed: true)
        default: return zone(.plain, .other, excluded: true)
        }
    }

    private static func libraryChild(_ name: UnsafeBufferPointer<UInt8>, parent: Zone) -> Zone {
        switch String(decoding: name, as: UTF8.self) {
        case "Application Support": return parent.inherit(kind: .plain, location: .applicationSupport)
        case "Caches": return parent.inherit(kind: .caches, location: .caches, excluded: true)
        case "Preferences": return parent.inherit(kind: .plain, location: .preferences)
        case "SplashBoard", "Saved Application State", "SyncedPreferences":
            return parent.inherit(kind: .plain, excluded: true, systemManaged: true)
        case "Cookies", "HTTPStorages", "WebKit": return parent.inherit(kind: .plain, systemManaged: true)
        default: return parent.inherit(kind: .plain)
        }
    }
}
