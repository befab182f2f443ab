#!/usr/bin/env python3
"""Fails when a Linux-only call appears outside its Linux guard, so the Mac build (Xcode's SDK alone) is not
broken by code that only CI's Linux compiler ever sees.

Swift files: a name from LINUX_ONLY must sit inside `#if os(Linux)` or `#if canImport(Glibc)` (or the `#else`
of `#if canImport(Darwin)` / `#if os(macOS)`). C files: inside `#ifdef __linux__` / `#if defined(__linux__)`
(or the `#else` of `__APPLE__`). Comments are ignored; string literals are searched only for Linux-only paths
(/proc, glibc tunables). Usage: check_platform_guards.py [--self-test] [ROOT ...] (default: Sources Tests Fuzz).
"""
import os
import re
import sys

# Declared by glibc (or Linux) and absent from macOS's SDK, or declared there with another meaning.
LINUX_ONLY = [
    "Glibc", "statx", "getdents64", "O_PATH", "O_NOATIME", "O_DIRECT", "O_TMPFILE", "O_LARGEFILE",
    "posix_fadvise", "POSIX_FADV_[A-Z]+", "fdatasync", "sync_file_range", "SYNC_FILE_RANGE_[A-Z_]+",
    "unshare", "CLONE_[A-Z]+", "sched_getaffinity", "sched_setaffinity", "memfd_create", "MAP_POPULATE",
    "MAP_HUGETLB", "MADV_HUGEPAGE", "mallopt", "malloc_trim", "renameat2", "RENAME_NOREPLACE",
    "RENAME_EXCHANGE", "llistxattr", "lgetxattr", "lsetxattr", "lremovexattr", "st_mtim", "st_atim",
    "st_ctim", "epoll_[a-z_]+", "inotify_[a-z_]+", "eventfd", "pipe2", "accept4", "dup3", "fallocate",
    "posix_fallocate", "sysinfo", "get_nprocs", "mremap", "splice", "copy_file_range", "__errno_location",
    "program_invocation_name", "getrandom", "secure_getenv", "prctl", "gettid", "F_OFD_[A-Z]+", "stat64",
    "lstat64", "fstat64", "fstatat64", "off64_t", "lseek64", "pread64", "pwrite64", "open64", "readdir64",
    "dirent64", "ftruncate64", "syncfs", "timerfd_[a-z]+", "signalfd", "clock_nanosleep", "sendfile64",
]
LINUX_ONLY_PATTERN = re.compile(r"(?<![A-Za-z0-9_])(" + "|".join(LINUX_ONLY) + r")(?![A-Za-z0-9_])")
# Inside string literals: paths and variables only Linux (or glibc) has.
LINUX_ONLY_TEXT = re.compile(r"/proc/|GLIBC_TUNABLES")

SWIFT_LINUX = re.compile(r"os\(\s*Linux\s*\)|canImport\(\s*Glibc\s*\)|canImport\(\s*Musl\s*\)")
SWIFT_DARWIN = re.compile(r"canImport\(\s*Darwin\s*\)|os\(\s*(macOS|iOS|tvOS|watchOS|visionOS)\s*\)")
C_LINUX = re.compile(r"__linux__|__gnu_linux__|__GLIBC__")
C_DARWIN = re.compile(r"__APPLE__|__MACH__")


def branch_platform(condition, linux, darwin):
    """'linux' when the branch is taken only on Linux, 'darwin' only on Darwin, None when it does not say.
    A negated or compound condition says nothing either way (checked as if unguarded)."""
    if "!" in condition or "&&" in condition or "||" in condition:
        return None
    if linux.search(condition):
        return "linux"
    if darwin.search(condition):
        return "darwin"
    return None


def opposite(platform):
    return {"linux": "darwin", "darwin": "linux"}.get(platform)


def strip_swift(line, state):
    """The line without comments; string literal contents returned separately. `state` carries an open
    block comment or multi-line string across lines."""
    code, text = [], []
    i = 0
    while i < len(line):
        if state["block"]:
            end = line.find("*/", i)
            if end < 0:
                return "".join(code), "".join(text)
            state["block"] -= 1
            i = end + 2
            continue
        if state["multiline"]:
            end = line.find('"""', i)
            text.append(line[i:] if end < 0 else line[i:end])
            if end < 0:
                return "".join(code), "".join(text)
            state["multiline"] = False
            i = end + 3
            continue
        if line.startswith("//", i):
            break
        if line.startswith("/*", i):
            state["block"] += 1
            i += 2
            continue
        if line.startswith('"""', i):
            state["multiline"] = True
            i += 3
            continue
        if line[i] == '"':
            j = i + 1
            while j < len(line) and line[j] != '"':
                j += 2 if line[j] == "\\" else 1
            text.append(line[i + 1:j])
            code.append('""')
            i = j + 1
            continue
        code.append(line[i])
        i += 1
    return "".join(code), "".join(text)


def strip_c(line, state):
    code, text = [], []
    i = 0
    while i < len(line):
        if state["block"]:
            end = line.find("*/", i)
            if end < 0:
                return "".join(code), "".join(text)
            state["block"] = 0
            i = end + 2
            continue
        if line.startswith("//", i):
            break
        if line.startswith("/*", i):
            state["block"] = 1
            i += 2
            continue
        if line[i] == '"':
            j = i + 1
            while j < len(line) and line[j] != '"':
                j += 2 if line[j] == "\\" else 1
            text.append(line[i + 1:j])
            code.append('""')
            i = j + 1
            continue
        code.append(line[i])
        i += 1
    return "".join(code), "".join(text)


def check_file(path, lines):
    """Problems in one file: (line number, message)."""
    swift = path.endswith(".swift")
    linux, darwin = (SWIFT_LINUX, SWIFT_DARWIN) if swift else (C_LINUX, C_DARWIN)
    strip = strip_swift if swift else strip_c
    state = {"block": 0, "multiline": False}
    # One frame per open #if: the platform of the branch being read, and the platforms of branches passed.
    stack = []
    problems = []
    for number, raw in enumerate(lines, 1):
        code, text = strip(raw, state)
        directive = code.strip()
        if not swift and directive.startswith("#"):
            directive = "#" + directive[1:].lstrip()
        if directive.startswith("#if"):
            if not swift and directive.startswith(("#ifdef", "#ifndef")):
                name = directive.split(None, 1)[1] if " " in directive else ""
                platform = branch_platform(name, linux, darwin)
                if directive.startswith("#ifndef"):
                    platform = opposite(platform)
            else:
                platform = branch_platform(directive[3:], linux, darwin)
            stack.append({"current": platform, "seen": [platform]})
            continue
        if directive.startswith(("#elseif", "#elif")) and stack:
            platform = branch_platform(directive.split(None, 1)[1] if " " in directive else "", linux, darwin)
            stack[-1]["current"] = platform
            stack[-1]["seen"].append(platform)
            continue
        if directive.startswith("#else") and stack:
            seen = [p for p in stack[-1]["seen"] if p]
            # `#if darwin … #else`: the rest is Linux (and any other system, where Linux-only calls fail too,
            # but this project builds on these two).
            stack[-1]["current"] = opposite(seen[0]) if len(seen) == 1 and len(stack[-1]["seen"]) == 1 else None
            continue
        if directive.startswith("#endif") and stack:
            stack.pop()
            continue
        if any(frame["current"] == "linux" for frame in stack):
            continue
        for match in LINUX_ONLY_PATTERN.finditer(code):
            problems.append((number, f"`{match.group(1)}` is Linux-only and not inside an #if os(Linux) guard"))
        for match in LINUX_ONLY_TEXT.finditer(text):
            problems.append((number, f"\"{match.group(0)}\" exists only on Linux and is not inside an #if os(Linux) guard"))
    return problems


def source_files(roots):
    for root in roots:
        for folder, dirs, files in os.walk(root):
            dirs[:] = [d for d in dirs if not d.startswith(".")]
            for name in sorted(files):
                if name.endswith((".swift", ".c", ".h")):
                    yield os.path.join(folder, name)


SELF_TEST = {
    "guarded.swift": ("#if canImport(Glibc)\nimport Glibc\n#elseif canImport(Darwin)\nimport Darwin\n#endif\n"
                      "#if os(Linux)\nlet a = fdatasync(fd)\n#else\nlet a = fsync(fd)\n#endif\n"
                      "#if canImport(Darwin)\nlet b = st_mtimespec\n#else\nlet b = st_mtim\n#endif\n"
                      "// statx in a comment is fine\nlet c = \"statx in a message\"\n", 0),
    "unguarded.swift": ("import Glibc\nlet a = fdatasync(fd)\n#if os(macOS)\nlet b = st_mtim\n#endif\n"
                        "execv(\"/proc/self/exe\", argv)\n#if !os(Linux)\nlet d = O_DIRECT\n#endif\n", 5),
    "guarded.c": ("#ifdef __linux__\nint a = O_DIRECT;\n#else\nint a = 0;\n#endif\n"
                  "#if defined(__APPLE__)\nint b = 0;\n#else\nint b = unshare(0);\n#endif\n", 0),
    "unguarded.c": ("int a = sync_file_range(0, 0, 0, SYNC_FILE_RANGE_WRITE);\n#ifdef __APPLE__\nint b = O_DIRECT;\n#endif\n", 3),
}


def self_test():
    failures = []
    for name, (text, expected) in SELF_TEST.items():
        found = check_file(name, text.splitlines())
        if len(found) != expected:
            failures.append(f"{name}: expected {expected} problems, found {len(found)}: {found}")
    return failures


def main(arguments):
    failures = self_test()
    if failures:
        print("check_platform_guards: the self-test failed, so the check cannot be trusted:", *failures, sep="\n  ")
        return 1
    if "--self-test" in arguments:
        print("check_platform_guards: self-test passed")
        return 0
    roots = [a for a in arguments if not a.startswith("--")] or ["Sources", "Tests", "Fuzz"]
    problems, count = [], 0
    for path in source_files(roots):
        count += 1
        with open(path, encoding="utf-8", errors="replace") as handle:
            problems += [(path, number, message) for number, message in check_file(path, handle.read().splitlines())]
    for path, number, message in problems:
        print(f"{path}:{number}: {message}")
    if problems:
        print(f"{len(problems)} Linux-only use(s) outside a Linux guard: the macOS build would fail")
        return 1
    print(f"no Linux-only call outside its guard ({count} files)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
