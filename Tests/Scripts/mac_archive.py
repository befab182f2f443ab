#!/usr/bin/env python3
"""Archives a folder the way macOS tools do, carrying each entry's extended attributes as a Mac would.

  mac_archive.py finder-zip PARENT NAME OUT.zip      Finder "Compress" / `ditto -c -k --sequesterRsrc`: the
                                                     attributes go to AppleDouble `._name` files under
                                                     `__MACOSX/`, beside the package
  mac_archive.py libarchive-tgz PARENT NAME OUT.tgz  macOS tar (bsdtar): pax `LIBARCHIVE.xattr.<name>` records
                                                     (name URL-encoded, value base64), gzip-compressed

Attributes are read from the Linux copy (`user.<mac name>`, as rsync -X leaves them) or, on macOS, as they are,
and written under their Mac names. Sidecars are laid out as macOS writes them (AppleDouble); pax records as libarchive writes them.
"""
import base64
import io
import os
import struct
import sys
import tarfile
import urllib.parse
import zipfile


# Attributes macOS puts on files by itself (Gatekeeper's provenance and quarantine): a Linux copy never has them,
# and the archives must hold the same attributes whichever system the tests run on.
MACOS_OWN = {"com.apple.provenance", "com.apple.quarantine"}


def mac_attributes(path):
    """The entry's Mac attributes as (name, value), sorted by name, the link itself for a link."""
    if hasattr(os, "listxattr"):
        # Linux (Python has os.listxattr there only): Apple's names under `user.`, as rsync -X leaves them.
        found = []
        for name in sorted(os.listxattr(path, follow_symlinks=False)):
            if name.startswith("user."):
                found.append((name[len("user."):], os.getxattr(path, name, follow_symlinks=False)))
        return found
    return [(name, value) for name, value in darwin_attributes(path) if name not in MACOS_OWN]


def darwin_attributes(path):
    """listxattr(2) and getxattr(2) of macOS's libSystem through ctypes (Python's os has no xattr calls there):
    ssize_t listxattr(const char *path, char *names, size_t size, int options), ssize_t getxattr(const char *path,
    const char *name, void *value, size_t size, u_int32_t position, int options); XATTR_NOFOLLOW is 1."""
    import ctypes
    libc = ctypes.CDLL("/usr/lib/libSystem.B.dylib", use_errno=True)
    libc.listxattr.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_size_t, ctypes.c_int]
    libc.listxattr.restype = ctypes.c_ssize_t
    libc.getxattr.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_void_p, ctypes.c_size_t, ctypes.c_uint32, ctypes.c_int]
    libc.getxattr.restype = ctypes.c_ssize_t
    nofollow = 1
    encoded = os.fsencode(path)

    def checked(result, what):
        if result < 0:
            error = ctypes.get_errno()
            raise OSError(error, "%s %s: %s" % (what, path, os.strerror(error)))
        return result

    size = checked(libc.listxattr(encoded, None, 0, nofollow), "listxattr")
    if size == 0:
        return []
    names = ctypes.create_string_buffer(size)
    size = checked(libc.listxattr(encoded, names, size, nofollow), "listxattr")
    found = []
    for name in sorted(n for n in names.raw[:size].split(b"\0") if n):
        length = checked(libc.getxattr(encoded, name, None, 0, 0, nofollow), "getxattr")
        value = ctypes.create_string_buffer(max(length, 1))
        length = checked(libc.getxattr(encoded, name, value, length, 0, nofollow), "getxattr")
        found.append((name.decode("utf-8", "surrogateescape"), value.raw[:length]))
    return found


def apple_double(attributes):
    """A sidecar as macOS writes it: FinderInfo entry holding the ATTR block, empty resource fork at the end."""
    entries, values = b"", b""
    lengths = [(11 + len(n.encode()) + 1 + 3) & ~3 for n, _ in attributes]
    data_start = 120 + sum(lengths)
    for (name, value), length in zip(attributes, lengths):
        encoded = name.encode() + b"\0"
        entry = struct.pack(">IIHB", data_start + len(values), len(value), 0, len(encoded)) + encoded
        entries += entry + b"\0" * (length - len(entry))
        values += value
    fork_offset = max(4096 - 286, data_start + len(values))
    head = struct.pack(">II16sH", 0x00051607, 0x00020000, b"Mac OS X        ", 2)
    head += struct.pack(">III", 9, 50, fork_offset - 50) + struct.pack(">III", 2, fork_offset, 286)
    head += b"\0" * 34
    head += b"ATTR" + struct.pack(">IIII", 0, fork_offset, data_start, len(values)) + b"\0" * 12
    head += struct.pack(">HH", 0, len(attributes)) + entries + values
    head += b"\0" * (fork_offset - len(head))
    fork = b"\0\0\1\0\0\0\1\0\0\0\0\0\0\0\0\x1e" + b"This resource fork intentionally left blank   ".ljust(240, b"\0")
    fork += b"\0\0\1\0\0\0\1\0\0\0\0\0\0\0\0\x1e" + b"\0" * 4 + b"\0\0\0\0" + b"\0\x1c\0\x1e\xff\xff"
    return head + fork


def walk(parent, name):
    top = os.path.join(parent, name)
    yield name, top
    for folder, dirs, files in os.walk(top):
        dirs.sort()
        for entry in sorted(dirs) + sorted(files):
            full = os.path.join(folder, entry)
            yield os.path.relpath(full, parent), full


def finder_zip(parent, name, out):
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        sidecars = []
        for relative, full in walk(parent, name):
            if os.path.islink(full):
                # A link stays a link (ditto keeps it): Unix mode in the external attributes, the target as data.
                info = zipfile.ZipInfo(relative)
                info.create_system = 3
                info.external_attr = 0o120755 << 16
                archive.writestr(info, os.readlink(full))
            elif os.path.isdir(full):
                archive.write(full, relative + "/")
            else:
                archive.write(full, relative)
            attributes = mac_attributes(full)
            if attributes:
                folder, base = os.path.split(relative)
                sidecars.append((os.path.join("__MACOSX", folder, "._" + base), apple_double(attributes)))
        for path, data in sidecars:
            archive.writestr(path, data)


def libarchive_tgz(parent, name, out):
    with tarfile.open(out, "w:gz", format=tarfile.PAX_FORMAT) as archive:
        for relative, full in walk(parent, name):
            info = archive.gettarinfo(full, relative)
            for attribute, value in mac_attributes(full):
                key = "LIBARCHIVE.xattr." + urllib.parse.quote(attribute, safe="")
                info.pax_headers[key] = base64.b64encode(value).decode()
            if info.isfile():
                with open(full, "rb") as data:
                    archive.addfile(info, data)
            else:
                archive.addfile(info)


if __name__ == "__main__":
    mode, parent, name, out = sys.argv[1:5]
    {"finder-zip": finder_zip, "libarchive-tgz": libarchive_tgz}[mode](parent, name, out)
