/// Paths from a folder and names: one `/` between each, none doubled; names are used as they are.
public enum Paths {
    public static func join(_ folder: String, _ names: String...) -> String {
        var path = folder
        for name in names {
            if !path.hasSuffix("/") { path += "/" }
            path += name
        }
        return path
    }

    /// The folder holding `path`: `.` for a bare name, `/` for a name at the root.
    public static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
