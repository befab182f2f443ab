/// Whether a regular file is sparse: it occupies less than its length because holes in it were never written.
package enum SparseCheck {
    /// `UF_COMPRESSED` in `st_flags`, 0x00000020 ("file is compressed (some file-systems)", XNU `bsd/sys/stat.h`):
    /// macOS's transparent compression (decmpfs, as `ditto --hfsCompression` and the system's own files use it)
    /// keeps the data compressed, so the file holds fewer blocks than its length with no hole in it.
    package static let compressedFlag: UInt32 = 0x0000_0020

    /// `size`: `st_size`; `blocks`: `st_blocks`, in 512-byte units on Linux and macOS alike; `flags`: `st_flags`
    /// (Darwin; Linux has no such field, and its callers pass 0). Sparse when the blocks hold less than the size,
    /// unless the file is compressed, which explains the difference without a hole.
    @inline(__always)
    package static func isSparse(size: Int64, blocks: Int64, flags: UInt32) -> Bool {
        flags & compressedFlag == 0 && blocks &* 512 < size
    }
}
