import StocktakeModel

/// Links from the index page to report folders. Folder names come from bundle identifiers, which are
/// attacker-controlled: every path segment is percent-encoded, so a name can never become a scheme
/// (`javascript:`), a query, a fragment or an absolute path. The result needs no further escaping.
enum RelativeHref {
    static func encode(_ path: String) -> String {
        var segments = path.split(separator: "/", omittingEmptySubsequences: false)
        // Always relative to the page: a leading "/" would point at the root of the site or the disk.
        while segments.first?.isEmpty == true && segments.count > 1 { segments.removeFirst() }
        return segments.map(encodeSegment).joined(separator: "/")
    }

    private static func encodeSegment(_ segment: Substring) -> String {
        Hex.percentEncoded(segment.utf8)
    }
}
