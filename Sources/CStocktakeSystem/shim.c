#define _GNU_SOURCE
#include "CStocktakeSystem.h"
#ifdef __linux__
#include <sched.h>
#endif

int stocktake_own_working_directory(void) {
#ifdef __linux__
    return unshare(CLONE_FS);
#else
    return -1;
#endif
}
