#ifndef C_STOCKTAKE_SYSTEM_H
#define C_STOCKTAKE_SYSTEM_H
// Glibc's Swift module does not export the xattr functions; this header does.
#include <sys/types.h>
#include <sys/xattr.h>

/// Gives the calling thread a working directory of its own (Linux `unshare(CLONE_FS)`), so a walker
/// thread can `fchdir` into the folder it lists and name entries by one path component.
/// Returns 0 on success, -1 where unsupported (then callers keep using full paths).
int stocktake_own_working_directory(void);

/// Starts writing the dirty pages of `length` bytes from `offset` of `fd` to disk without waiting (Linux
/// `sync_file_range(SYNC_FILE_RANGE_WRITE)`), so a later `fsync` of a large file has little left to wait
/// for. Returns 0, or -1 where unsupported (harmless: `fsync` still does it all).
int stocktake_start_writeback(int fd, long long offset, long long length);

/// Turns direct I/O (Linux `O_DIRECT`: writes go to the disk, not through the page cache) on or off for
/// `fd`. Returns 0, or -1 where unsupported (then the file stays buffered).
int stocktake_direct_io(int fd, int on);
#endif
