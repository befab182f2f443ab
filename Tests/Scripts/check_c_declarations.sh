#!/usr/bin/env bash
# Sources/CLibArchive/shim.h declares the libarchive calls Stocktake makes instead of including <archive.h>,
# which Xcode's SDK does not ship. Here, where libarchive's real headers are installed, the shim is compiled
# after them: a declaration whose signature differs (conflicting types) or a value that differs (macro
# redefined, or a failed static assertion) stops CI. A planted wrong signature must fail too, so the check is
# known to bite.
set -euo pipefail
cd "$(dirname "$0")/../.."

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

check() {  # check SHIM: compile SHIM after the real headers
  cat > "$scratch/check.c" <<C
#include <archive.h>
#include <archive_entry.h>
#include "$1"
_Static_assert(STOCKTAKE_AE_IFMT == AE_IFMT, "AE_IFMT");
_Static_assert(STOCKTAKE_AE_IFREG == AE_IFREG, "AE_IFREG");
_Static_assert(STOCKTAKE_AE_IFLNK == AE_IFLNK, "AE_IFLNK");
_Static_assert(STOCKTAKE_AE_IFSOCK == AE_IFSOCK, "AE_IFSOCK");
_Static_assert(STOCKTAKE_AE_IFCHR == AE_IFCHR, "AE_IFCHR");
_Static_assert(STOCKTAKE_AE_IFBLK == AE_IFBLK, "AE_IFBLK");
_Static_assert(STOCKTAKE_AE_IFDIR == AE_IFDIR, "AE_IFDIR");
_Static_assert(STOCKTAKE_AE_IFIFO == AE_IFIFO, "AE_IFIFO");
C
  # gnu11, as Swift's C importer: POSIX's locale_t is visible.
  cc -fsyntax-only -std=gnu11 -Wall -Wextra -Werror $(pkg-config --cflags libarchive 2>/dev/null) "$scratch/check.c"
}

check "$PWD/Sources/CLibArchive/shim.h"
sed 's/^int archive_read_free(/long archive_read_free(/' Sources/CLibArchive/shim.h > "$scratch/planted.h"
if check "$scratch/planted.h" 2>/dev/null; then
  echo "check_c_declarations: a planted wrong signature compiled: the check does not work" >&2
  exit 1
fi
echo "libarchive declarations match libarchive $(pkg-config --modversion libarchive 2>/dev/null || echo '(version unknown)')'s headers"
