#ifndef C_STOCKTAKE_SYSTEM_H
#define C_STOCKTAKE_SYSTEM_H
// Glibc's Swift module does not export the xattr functions; this header does.
#include <sys/types.h>
#include <sys/xattr.h>
#endif
