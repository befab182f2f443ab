import StocktakeModel

/// Name heuristics for content an app can fetch or rebuild: cache-like folders, hashed and UUID file names.
/// Names are raw bytes (not necessarily UTF-8); matching is ASCII case-insensitive.
enum RecreatableNames {
    /// How strongly a folder's name says its content can be fetched or rebuilt.
    enum FolderSignal {
        /// Caches, thumbnails, stickers, temporary folders: every file inside counts.
        case everything
        /// Download folders: downloaded media and hashed or UUID names count; a document a user saved does not.
        case downloadedMedia
    }

    /// Substrings that make a folder cache-like wherever they appear ("ImageCache", "fsCachedData", "Thumbs").
    private static let everythingSubstrings: [[UInt8]] = ["cache", "thumb", "sticker"].map { Array($0.utf8) }
    /// Whole words only: "temp" must not match "template" or "attempt".
    private static let everythingWords: Set<[UInt8]> = Set(["tmp", "temp", "temporary"].map { Array($0.utf8) })
    private static let downloadSubstring = Array("download".utf8)

    static func folderSignal(_ name: some Collection<UInt8>) -> FolderSignal? {
        let lowered = name.map(asciiLowercased)
        if everythingSubstrings.contains(where: { ByteSearch.contains($0, in: lowered[...]) }) { return .everything }
        if words(name).contains(where: { everythingWords.contains($0) }) { return .everything }
        if ByteSearch.contains(downloadSubstring, in: lowered[...]) { return .downloadedMedia }
        return nil
    }

    /// A file's own name marking it re-creatable ("image-cache.sqlite", "thumbnail_12.jpg"). Runs for every
    /// file in Documents and Application Support: compares in place, allocates nothing.
    static func isCacheFileName(_ name: ArraySlice<UInt8>) -> Bool {
        containsIgnoringASCIICase(name, "cache") || containsIgnoringASCIICase(name, "thumb")
    }

    /// Whether `needle` (lowercase ASCII) occurs in `haystack`, ASCII letters compared case-insensitively.
    private static func containsIgnoringASCIICase(_ haystack: ArraySlice<UInt8>, _ needle: StaticString) -> Bool {
        let count = needle.utf8CodeUnitCount
        guard haystack.count >= count else { return false }
        let bytes = needle.utf8Start
        var start = haystack.startIndex
        while start + count <= haystack.endIndex {
            var offset = 0
            while offset < count && asciiLowercased(haystack[start + offset]) == bytes[offset] { offset += 1 }
            if offset == count { return true }
            start += 1
        }
        return false
    }

    /// 32, 40 or 64 hex digits (MD5, SHA-1, SHA-256 of a URL) or a UUID, before the first `.` or `@`.
    static func isHashedOrUUID(_ name: some Collection<UInt8>) -> Bool {
        let stem = Array(name.prefix { $0 != UInt8(ascii: ".") && $0 != UInt8(ascii: "@") })
        if [32, 40, 64].contains(stem.count) { return stem.allSatisfy(Hex.isDigit) }
        return Hex.isUUID(stem)
    }

    /// Words split at anything not a letter or digit and at lower-to-upper case changes ("tmpFiles", "Temp_1").
    static func words(_ name: some Collection<UInt8>) -> [[UInt8]] {
        var result: [[UInt8]] = []
        var word: [UInt8] = []
        var previousWasLower = false
        for byte in name {
            let isUpper = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")
            let isLower = byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")
            let isDigit = byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
            if !(isUpper || isLower || isDigit) || (isUpper && previousWasLower) {
                if !word.isEmpty { result.append(word) }
                word = []
            }
            if isUpper || isLower || isDigit { word.append(asciiLowercased(byte)) }
            previousWasLower = isLower
        }
        if !word.isEmpty { result.append(word) }
        return result
    }
}
