extension Zone {
    /// The zone of the entry at `path` (`/`-separated, relative to the container root), each folder on the way
    /// placed as the walk places it. For readers that have a path and no walk: the diff's file rows, the builder.
    public static func of(path: some Collection<UInt8>, isDirectory: Bool) -> Zone {
        let components = path.split(separator: UInt8(ascii: "/"))
        var zone = Zone.root
        for (index, component) in components.enumerated() {
            let name = Array(component)
            zone = name.withUnsafeBufferPointer {
                zone.child(named: $0, isDirectory: isDirectory || index < components.count - 1)
            }
        }
        return zone
    }
}
