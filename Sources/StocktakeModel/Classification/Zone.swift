import StocktakeModel

/// What a directory means for the entries inside it: their location, whether iOS ever backs them up,
/// whether iOS manages them. Computed from the parent's zone and the name, so no path is re-parsed.
/// What iOS makes comes from `SystemCatalogue`.
struct Zone: Sendable, Equatable {
    /// Which catalogue folder the zone's children sit in (`plain`: none of them).
    enum Kind: Sendable, Equatable { case root, library, caches, cachesFolder, tmp, plain }

    let kind: Kind
    let location: Location
    /// iOS never backs this place up (Caches, tmp, SplashBoard, SystemData, …).
    let excludedBySystem: Bool
    /// iOS backs this system-made place up (Cookies, WebKit): real backups hold it.
    let backedUpBySystem: Bool
    let systemManaged: Bool
    /// Inside `__MACOSX/`: transport metadata, not app data.
    let transport: Bool

    static let root = Zone(
        kind: .root, location: .other, excludedBySystem: true, backedUpBySystem: false, systemManaged: false, transport: false)

    /// The classification of a child called `name`; for a directory it is also the zone of its own children.
    func child(named name: UnsafeBufferPointer<UInt8>, isDirectory: Bool) -> Zone {
        let standard: Zone
        switch kind {
        case .root: standard = Zone.rootChild(name)
        case .library: standard = Zone.libraryChild(name, parent: self)
        case .caches: standard = inherit(kind: isDirectory ? .cachesFolder : .plain)
        case .cachesFolder, .tmp, .plain: standard = inherit(kind: .plain)
        }
        guard let parent = catalogueParent, let item = SystemCatalogue.item(in: parent, named: name) else { return standard }
        return standard.made(by: item)
    }

    private var catalogueParent: SystemCatalogue.Parent? {
        switch kind {
        case .root: .root
        case .library: .library
        case .caches: .caches
        case .cachesFolder: .cachesFolder
        case .tmp: .tmp
        case .plain: nil
        }
    }

    /// This zone for an entry iOS makes: system-managed, with the catalogue's backup fact.
    private func made(by item: SystemCatalogue.Item) -> Zone {
        Zone(
            kind: kind, location: location, excludedBySystem: excludedBySystem || item.backup == .notBackedUp,
            backedUpBySystem: item.backup == .backedUp && !excludedBySystem, systemManaged: true, transport: transport)
    }

    private func inherit(kind: Kind, location: Location? = nil, excluded: Bool = false) -> Zone {
        Zone(
            kind: kind, location: location ?? self.location, excludedBySystem: excludedBySystem || excluded,
            backedUpBySystem: backedUpBySystem, systemManaged: systemManaged, transport: transport)
    }

    private static func rootChild(_ name: UnsafeBufferPointer<UInt8>) -> Zone {
        func zone(_ kind: Kind, _ location: Location, excluded: Bool, transport: Bool = false) -> Zone {
            Zone(
                kind: kind, location: location, excludedBySystem: excluded, backedUpBySystem: false, systemManaged: false,
                transport: transport)
        }
        switch String(decoding: name, as: UTF8.self) {
        case "Documents": return zone(.plain, .documents, excluded: false)
        case "Library": return zone(.library, .libraryOther, excluded: false)
        case "tmp": return zone(.tmp, .tmp, excluded: true)
        case "SystemData": return zone(.plain, .systemData, excluded: true)
        // The backup agent's roots are Documents, Library and GeoJSON; everything else at the root is skipped.
        case "GeoJSON": return zone(.plain, .other, excluded: false)
        case "__MACOSX": return zone(.plain, .other, excluded: true, transport: true)
        default: return zone(.plain, .other, excluded: true)
        }
    }

    private static func libraryChild(_ name: UnsafeBufferPointer<UInt8>, parent: Zone) -> Zone {
        switch String(decoding: name, as: UTF8.self) {
        case "Application Support": parent.inherit(kind: .plain, location: .applicationSupport)
        case "Caches": parent.inherit(kind: .caches, location: .caches, excluded: true)
        case "Preferences": parent.inherit(kind: .plain, location: .preferences)
        default: parent.inherit(kind: .plain)
        }
    }
}
