/// Whether a regular file is sparse: it occupies less than its length because holes in it were never written.
package enum SparseCheck {
    /// `UF_COMPRESSED` in Darwin's `st_flags`: a file macOS compresses (decmpfs) holds fewer blocks with no hole.
    package static let compressedFlag: UInt32 = 0x0000_0020

    /// `blocks`: `st_blocks` (512-byte units on Linux and macOS alike); `flags`: `st_flags` (0 on Linux).
    @inline(__always)
    package static func isSparse(size: Int64, blocks: Int64, flags: UInt32) -> Bool {
        flags & compressedFlag == 0 && blocks &* 512 < size
    }
}
