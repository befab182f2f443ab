import StocktakeModel

/// Links to report folders, named by attacker-controlled bundle identifiers: every segment is percent-encoded, so a
/// name never becomes a scheme (`javascript:`), a query, a fragment or an absolute path.
enum RelativeHref {
    static func encode(_ path: String) -> String {
        var segments = path.split(separator: "/", omittingEmptySubsequences: false)
        // Always relative to the page: a leading "/" would point at the root of the site or the disk.
        while segments.first?.isEmpty == true && segments.count > 1 { segments.removeFirst() }
        return segments.map { Hex.percentEncoded($0.utf8) }.joined(separator: "/")
    }
}
