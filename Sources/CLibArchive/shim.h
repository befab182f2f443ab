// libarchive's read API as function-pointer types: archives are read in place, as a stream, and never extracted.
//
// Nothing here is linked. Stocktake loads the system's libarchive when the first archive is read (dlopen:
// libarchive.so.13 on Linux, /usr/lib/libarchive.2.dylib on macOS) and resolves each call below by name, so the
// package builds with nothing installed and folders, simulators and device backups never need the library.
// The types are written out instead of taken from <archive.h>, which Xcode's SDK does not ship. Only long-stable
// calls of libarchive 3.x are named (macOS 14 ships 3.5, Debian 12 ships 3.6).
// Tests/Scripts/check_c_declarations.sh assigns libarchive's real functions to these types after its real headers:
// a signature or a value that differs from libarchive's own is a compile error there.
#ifndef STOCKTAKE_CLIBARCHIVE_SHIM_H
#define STOCKTAKE_CLIBARCHIVE_SHIM_H
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

struct archive;
struct archive_entry;

// Status codes and format codes, with libarchive's values.
#define ARCHIVE_EOF 1
#define ARCHIVE_OK 0
#define ARCHIVE_WARN (-20)
#define ARCHIVE_FATAL (-30)
#define ARCHIVE_FORMAT_BASE_MASK 0xff0000
#define ARCHIVE_FORMAT_TAR 0x30000
#define ARCHIVE_FORMAT_ZIP 0x50000

// Reading (archive.h). la_ssize_t is ssize_t and la_int64_t is int64_t on every POSIX system.
typedef struct archive *(*stocktake_archive_read_new)(void);
typedef int (*stocktake_archive_read_free)(struct archive *);
typedef int (*stocktake_archive_read_support)(struct archive *);  // the support_filter_* and support_format_* calls
typedef int (*stocktake_archive_read_set_options)(struct archive *_a, const char *opts);
typedef int (*stocktake_archive_read_open_fd)(struct archive *, int _fd, size_t _block_size);
typedef int (*stocktake_archive_read_next_header)(struct archive *, struct archive_entry **);
typedef ssize_t (*stocktake_archive_read_data)(struct archive *, void *, size_t);
typedef const char *(*stocktake_archive_error_string)(struct archive *);
typedef int (*stocktake_archive_filter_count)(struct archive *);
typedef const char *(*stocktake_archive_filter_name)(struct archive *, int);
typedef int (*stocktake_archive_format)(struct archive *);

// Entries (archive_entry.h). __LA_MODE_T is mode_t before libarchive 4.
typedef mode_t (*stocktake_archive_entry_filetype)(struct archive_entry *);
typedef const char *(*stocktake_archive_entry_text)(struct archive_entry *);  // pathname, symlink, hardlink (and _utf8)
typedef time_t (*stocktake_archive_entry_mtime)(struct archive_entry *);
typedef int64_t (*stocktake_archive_entry_size)(struct archive_entry *);
typedef int (*stocktake_archive_entry_size_is_set)(struct archive_entry *);
typedef int (*stocktake_archive_entry_xattr_reset)(struct archive_entry *);
typedef int (*stocktake_archive_entry_xattr_next)(struct archive_entry *, const char **name, const void **value, size_t *size);

// libarchive converts entry names between the archive's charset (zip's UTF-8 flag, pax `path=` records) and the
// current locale's; in the C locale every non-ASCII name fails. A UTF-8 LC_CTYPE for this thread alone (never
// the process's, which a library must not change) while an archive is read keeps such names. macOS declares
// newlocale/uselocale in <xlocale.h> and names the locale "UTF-8"; glibc calls it "C.UTF-8".
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
#endif
