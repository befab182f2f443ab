/// What a directory means for the entries inside it: their location, whether iOS ever backs them up,
/// whether iOS manages them. Computed from the parent's zone and the name, so no path is re-parsed: the walk,
/// the archive and backup readers and `InventoryBuilder` all place entries through it (the one classifier).
/// What iOS makes comes from `SystemCatalogue`. Runs once per entry on the walk's hot path: no allocation.
public struct Zone: Sendable, Equatable {
    /// Which catalogue folder the zone's children sit in (nil: none of them).
    public let folder: SystemCatalogue.Parent?
    public let location: Location
    /// iOS never backs this place up (Caches, tmp, SplashBoard, SystemData, …).
    public let excludedBySystem: Bool
    /// iOS backs this system-made place up (Cookies, WebKit): real backups hold it.
    public let backedUpBySystem: Bool
    public let systemManaged: Bool
    /// Inside `__MACOSX/`: transport metadata, not app data.
    public let transport: Bool

    public static let root = Zone(
        folder: .root, location: .other, excludedBySystem: true, backedUpBySystem: false, systemManaged: false,
        transport: false)

    /// The classification of a child called `name`; for a directory it is also the zone of its own children.
    public func child(named name: UnsafeBufferPointer<UInt8>, isDirectory: Bool) -> Zone {
        let standard: Zone
        switch folder {
        case .root: standard = Zone.rootChild(name)
        case .library: standard = Zone.libraryChild(name, parent: self)
        case .caches: standard = inherit(folder: isDirectory ? .cachesFolder : nil)
        case .cachesFolder, .tmp, nil: standard = inherit(folder: nil)
        }
        guard let folder, let item = SystemCatalogue.item(in: folder, named: name) else { return standard }
        return standard.made(by: item)
    }

    /// This zone for an entry iOS makes: system-managed, with the catalogue's backup fact.
    private func made(by item: SystemCatalogue.Item) -> Zone {
        Zone(
            folder: folder, location: location, excludedBySystem: excludedBySystem || item.backup == .notBackedUp,
            backedUpBySystem: item.backup == .backedUp && !excludedBySystem, systemManaged: true, transport: transport)
    }

    private func inherit(folder: SystemCatalogue.Parent?, location: Location? = nil, excluded: Bool = false) -> Zone {
        Zone(
            folder: folder, location: location ?? self.location, excludedBySystem: excludedBySystem || excluded,
            backedUpBySystem: backedUpBySystem, systemManaged: systemManaged, transport: transport)
    }

    private static func rootChild(_ name: UnsafeBufferPointer<UInt8>) -> Zone {
        func zone(_ folder: SystemCatalogue.Parent?, _ location: Location, excluded: Bool, transport: Bool = false)
            -> Zone
        {
            Zone(
                folder: folder, location: location, excludedBySystem: excluded, backedUpBySystem: false,
                systemManaged: false, transport: transport)
        }
        // Compared as bytes: a Swift string of a long name would be allocated.
        if name.elementsEqual("Documents".utf8) { return zone(nil, .documents, excluded: false) }
        if name.elementsEqual("Library".utf8) { return zone(.library, .libraryOther, excluded: false) }
        if name.elementsEqual("tmp".utf8) { return zone(.tmp, .tmp, excluded: true) }
        if name.elementsEqual("SystemData".utf8) { return zone(nil, .systemData, excluded: true) }
        // The backup agent's roots are Documents, Library and GeoJSON; everything else at the root is skipped.
        if name.elementsEqual("GeoJSON".utf8) { return zone(nil, .other, excluded: false) }
        if name.elementsEqual("__MACOSX".utf8) { return zone(nil, .other, excluded: true, transport: true) }
        return zone(nil, .other, excluded: true)
    }

    private static func libraryChild(_ name: UnsafeBufferPointer<UInt8>, parent: Zone) -> Zone {
        guard let standard = LibraryFolder.standard(named: name) else { return parent.inherit(folder: nil) }
        return parent.inherit(
            folder: standard.location == .caches ? .caches : nil, location: standard.location,
            excluded: standard.location.isPurgeable)
    }
}
