/// Library's standard folders, the one list: the walk places entries by it, the container detection and the
/// `library-root-file` rule read it. iOS's own folders in Library (SplashBoard, Cookies, …) are `SystemCatalogue`'s.
public struct LibraryFolder: Sendable {
    public let name: String
    /// Where its entries are counted: `libraryOther` for a standard folder with no location of its own.
    public let location: Location

    /// Application Support, Caches and Preferences (Apple's File System Programming Guide), and Sounds, where
    /// `UNNotificationSound` looks for custom notification sounds.
    public static let standard: [LibraryFolder] = [
        LibraryFolder(name: "Application Support", location: .applicationSupport),
        LibraryFolder(name: "Caches", location: .caches), LibraryFolder(name: "Preferences", location: .preferences),
        LibraryFolder(name: "Sounds", location: .libraryOther),
    ]

    /// The standard folder called `name`, if it is one.
    public static func standard(named name: UnsafeBufferPointer<UInt8>) -> LibraryFolder? {
        standard.first { name.elementsEqual($0.name.utf8) }
    }

    public static func isStandard(_ name: ArraySlice<UInt8>) -> Bool {
        name.withUnsafeBufferPointer { standard(named: $0) } != nil
    }
}
