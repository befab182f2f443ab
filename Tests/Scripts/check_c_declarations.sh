#!/usr/bin/env bash
# Sources/CLibArchive/shim.h names the libarchive calls Stocktake resolves at run time as function-pointer types,
# instead of including <archive.h>, which Xcode's SDK does not ship. Here, where libarchive's real headers are
# installed, each real function is assigned to its type after the real headers: a signature that differs is an
# incompatible-pointer error, a value that differs a redefined macro or a failed static assertion, and -Werror stops
# CI. A planted wrong signature must fail too, so the check is known to bite.
set -euo pipefail
cd "$(dirname "$0")/../.."

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# Each call Stocktake resolves (Sources/StocktakeScan/Archive/LibArchive.swift), with its type in the shim.
calls="
archive_read_new:stocktake_archive_read_new
archive_read_free:stocktake_archive_read_free
archive_read_support_filter_bzip2:stocktake_archive_read_support
archive_read_support_filter_gzip:stocktake_archive_read_support
archive_read_support_filter_xz:stocktake_archive_read_support
archive_read_support_format_gnutar:stocktake_archive_read_support
archive_read_support_format_tar:stocktake_archive_read_support
archive_read_support_format_zip:stocktake_archive_read_support
archive_read_set_options:stocktake_archive_read_set_options
archive_read_open_fd:stocktake_archive_read_open_fd
archive_read_next_header:stocktake_archive_read_next_header
archive_read_data:stocktake_archive_read_data
archive_error_string:stocktake_archive_error_string
archive_filter_count:stocktake_archive_filter_count
archive_filter_name:stocktake_archive_filter_name
archive_format:stocktake_archive_format
archive_entry_filetype:stocktake_archive_entry_filetype
archive_entry_hardlink:stocktake_archive_entry_text
archive_entry_hardlink_utf8:stocktake_archive_entry_text
archive_entry_mtime:stocktake_archive_entry_mtime
archive_entry_pathname:stocktake_archive_entry_text
archive_entry_pathname_utf8:stocktake_archive_entry_text
archive_entry_size:stocktake_archive_entry_size
archive_entry_size_is_set:stocktake_archive_entry_size_is_set
archive_entry_symlink:stocktake_archive_entry_text
archive_entry_symlink_utf8:stocktake_archive_entry_text
archive_entry_xattr_reset:stocktake_archive_entry_xattr_reset
archive_entry_xattr_next:stocktake_archive_entry_xattr_next
"

# Every call the Swift side resolves is in the list above (a call added there and not here would go unchecked).
resolved=$(grep -o '"archive_[a-z0-9_]*"' Sources/StocktakeScan/Archive/LibArchive.swift | tr -d '"' | sort -u)
listed=$(for pair in $calls; do echo "${pair%%:*}"; done | sort -u)
if [ "$resolved" != "$listed" ]; then
  echo "check_c_declarations: the calls LibArchive.swift resolves differ from this script's list:" >&2
  diff <(echo "$listed") <(echo "$resolved") >&2 || true
  exit 1
fi

check() {  # check SHIM: compile SHIM after the real headers, assigning each real call to its type
  {
    echo '#include <archive.h>'
    echo '#include <archive_entry.h>'
    echo "#include \"$1\""
    # ArchiveStream reads archive_entry_filetype's AE_IF* values as the POSIX S_IF* ones.
    echo '#include <sys/stat.h>'
    for type in IFMT IFREG IFLNK IFSOCK IFCHR IFBLK IFDIR IFIFO; do
      echo "_Static_assert(AE_$type == S_$type, \"AE_$type\");"
    done
    for pair in $calls; do
      echo "${pair#*:} check_${pair%%:*} = ${pair%%:*};"
    done
  } > "$scratch/check.c"
  # gnu11, as Swift's C importer: POSIX's locale_t is visible.
  cc -fsyntax-only -std=gnu11 -Wall -Wextra -Werror $(pkg-config --cflags libarchive 2>/dev/null) "$scratch/check.c"
}

check "$PWD/Sources/CLibArchive/shim.h"
sed 's/^typedef int (\*stocktake_archive_read_free)/typedef long (*stocktake_archive_read_free)/' Sources/CLibArchive/shim.h > "$scratch/planted.h"
grep -q 'typedef long (\*stocktake_archive_read_free)' "$scratch/planted.h"
if check "$scratch/planted.h" 2>/dev/null; then
  echo "check_c_declarations: a planted wrong signature compiled: the check does not work" >&2
  exit 1
fi
echo "libarchive's calls match libarchive $(pkg-config --modversion libarchive 2>/dev/null || echo '(version unknown)')'s headers"
