// libarchive's read API: archives are read in place, as a stream, and never extracted.
#include <archive.h>
#include <archive_entry.h>

// The AE_IF* constants are cast macros, which Swift does not import.
static inline int stocktake_archive_is_regular(struct archive_entry *entry) { return archive_entry_filetype(entry) == AE_IFREG; }
static inline int stocktake_archive_is_directory(struct archive_entry *entry) { return archive_entry_filetype(entry) == AE_IFDIR; }
static inline int stocktake_archive_is_symlink(struct archive_entry *entry) { return archive_entry_filetype(entry) == AE_IFLNK; }
static inline int stocktake_archive_is_fifo(struct archive_entry *entry) { return archive_entry_filetype(entry) == AE_IFIFO; }
static inline int stocktake_archive_is_socket(struct archive_entry *entry) { return archive_entry_filetype(entry) == AE_IFSOCK; }
static inline int stocktake_archive_is_character_device(struct archive_entry *entry) { return archive_entry_filetype(entry) == AE_IFCHR; }
static inline int stocktake_archive_is_block_device(struct archive_entry *entry) { return archive_entry_filetype(entry) == AE_IFBLK; }

// libarchive converts entry names between the archive's charset (zip's UTF-8 flag, pax `path=` records) and the
// current locale's; in the C locale every non-ASCII name fails. A UTF-8 LC_CTYPE for this thread alone (never
// the process's, which a library must not change) while an archive is read keeps such names.
#include <locale.h>
#ifdef __APPLE__
#include <xlocale.h>
#endif

typedef struct {
    locale_t previous;
    locale_t utf8;
} stocktake_archive_locale;

static inline stocktake_archive_locale stocktake_archive_begin_utf8_names(void) {
    stocktake_archive_locale scope = {(locale_t)0, (locale_t)0};
    const char *names[] = {"C.UTF-8", "C.utf8", "UTF-8", "en_US.UTF-8"};
    for (unsigned i = 0; i < sizeof names / sizeof names[0] && scope.utf8 == (locale_t)0; i++) {
        scope.utf8 = newlocale(LC_CTYPE_MASK, names[i], (locale_t)0);
    }
    if (scope.utf8 != (locale_t)0) scope.previous = uselocale(scope.utf8);
    return scope;
}

static inline void stocktake_archive_end_utf8_names(stocktake_archive_locale scope) {
    if (scope.utf8 == (locale_t)0) return;
    uselocale(scope.previous);
    freelocale(scope.utf8);
}
