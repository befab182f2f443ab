#define _GNU_SOURCE
#include "CStocktakeSystem.h"
#include <string.h>
#ifdef __linux__
#include <fcntl.h>
#include <sched.h>
#endif

int stocktake_start_writeback(int fd, long long offset, long long length) {
#ifdef __linux__
    return sync_file_range(fd, (off64_t)offset, (off64_t)length, SYNC_FILE_RANGE_WRITE);
#else
    (void)fd; (void)offset; (void)length;
    return -1;
#endif
}

int stocktake_direct_io(int fd, int on) {
#ifdef __linux__
    int flags = fcntl(fd, F_GETFL);
    if (flags < 0) return -1;
    return fcntl(fd, F_SETFL, on ? (flags | O_DIRECT) : (flags & ~O_DIRECT));
#else
    (void)fd; (void)on;
    return -1;
#endif
}

int stocktake_own_working_directory(void) {
#ifdef __linux__
    return unshare(CLONE_FS);
#else
    return -1;
#endif
}
