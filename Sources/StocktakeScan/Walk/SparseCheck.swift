/// Whether a regular file is sparse: it occupies less than its length because holes in it were never written.
package enum SparseCheck {
    /// `UF_COMPRESSED` in Darwin's `st_flags`: macOS's transparent compression (decmpfs) keeps the data compressed,
    /// so the file holds fewer blocks than its length with no hole in it.
    package static let compressedFlag: UInt32 = 0x0000_0020

    /// `blocks`: `st_blocks`, in 512-byte units on Linux and macOS alike; `flags`: `st_flags` (0 on Linux, which has
    /// no such field). Sparse when the blocks hold less than the size, unless the file is compressed.
    @inline(__always)
    package static func isSparse(size: Int64, blocks: Int64, flags: UInt32) -> Bool {
        flags & compressedFlag == 0 && blocks &* 512 < size
    }
}
