/// Finding a byte string inside another: names, small headers, markup. (Whole files are searched with the C
/// library's `memmem` where speed matters.)
public enum ByteSearch {
    /// The offset of the first `needle` in `haystack` at or after `start`, or nil. An empty needle is found at `start`.
    public static func firstIndex(
        of needle: some Collection<UInt8>, in haystack: ArraySlice<UInt8>, from start: Int? = nil
    ) -> Int? {
        let needle = Array(needle)
        var position = max(start ?? haystack.startIndex, haystack.startIndex)
        guard let first = needle.first else { return position <= haystack.endIndex ? position : nil }
        while position + needle.count <= haystack.endIndex {
            if haystack[position] == first, haystack[position..<(position + needle.count)].elementsEqual(needle) {
                return position
            }
            position += 1
        }
        return nil
    }

    public static func contains(_ needle: some Collection<UInt8>, in haystack: ArraySlice<UInt8>) -> Bool {
        firstIndex(of: needle, in: haystack) != nil
    }
}
