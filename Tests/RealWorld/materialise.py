#!/usr/bin/env python3
"""Builds the real container layouts listed beside this file as folders: OUT/<source>/<container>/...

usage: materialise.py OUT

Each <source>.tsv.gz line is: container, path inside it, type (d/f/l), size, mtime, mode, link target, with
bytes that are not UTF-8 written as \\xNN. Files are zero-filled to their size (the listings hold no
contents), links are made as listed (never followed), and modes and times are set once everything exists,
so a folder's time is not changed by filling it.
"""
import gzip
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def raw(text):
    """The bytes a listing field stands for."""
    out, i = bytearray(), 0
    while i < len(text):
        if text.startswith('\\x', i):
            out.append(int(text[i + 2:i + 4], 16))
            i += 4
        elif text[i] == '\\':
            out.append(0x5C)
            i += 2
        else:
            out += text[i].encode()
            i += 1
    return bytes(out)


def build(source, out):
    root = os.path.join(out.encode(), source.encode())
    folders = []
    with gzip.open(os.path.join(HERE, source + '.tsv.gz'), 'rt', encoding='utf-8') as listing:
        for line in listing:
            if line.startswith('#'):
                continue
            container, path, kind, size, mtime, mode, target = line.rstrip('\n').split('\t')
            full = os.path.join(root, container.encode(), raw(path))
            os.makedirs(os.path.dirname(full), exist_ok=True)
            if kind == 'd':
                os.makedirs(full, exist_ok=True)
                folders.append((full, int(mode, 8), int(mtime)))
            elif kind == 'l':
                os.symlink(raw(target), full)
            else:
                with open(full, 'wb') as file:
                    file.truncate(0)
                    remaining = int(size)
                    while remaining > 0:
                        chunk = min(remaining, 1 << 20)
                        file.write(b'\0' * chunk)
                        remaining -= chunk
                os.chmod(full, int(mode, 8) | 0o600)
                os.utime(full, (int(mtime), int(mtime)))
    for full, mode, mtime in reversed(folders):
        os.chmod(full, mode | 0o700)
        os.utime(full, (mtime, mtime))


def main():
    out = sys.argv[1]
    for name in sorted(os.listdir(HERE)):
        if name.endswith('.tsv.gz'):
            build(name[:-len('.tsv.gz')], out)


if __name__ == '__main__':
    main()
