// libarchive's read API: archives are read in place, as a stream, and never extracted.
#include <archive.h>
#include <archive_entry.h>

// The AE_IF* constants are cast macros, which Swift does not import.
static inline int stocktake_archive_is_regular(struct archive_entry *entry) { return archive_entry_filetype(entry) == AE_IFREG; }
static inline int stocktake_archive_is_directory(struct archive_entry *entry) { return archive_entry_filetype(entry) == AE_IFDIR; }
static inline int stocktake_archive_is_symlink(struct archive_entry *entry) { return archive_entry_filetype(entry) == AE_IFLNK; }
