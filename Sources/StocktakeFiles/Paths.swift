/// Joining a folder and names into one path: one `/` between each, none doubled when the folder already ends in one.
/// The names are used as they are (a name from a container may hold anything but `/` and NUL).
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
