#!/usr/bin/env python3
"""Fails when our Swift code uses a toolchain API that needs a newer macOS than the package's deployment target
(`.macOS(.vNN)` in Package.swift) outside a guard: Linux compilers ignore macOS availability (swiftlang/swift
issue 42630), so such a use builds in CI and breaks every Mac build.

How: the toolchain's own symbol graphs (`swift symbolgraph-extract`, run afresh into a temporary folder each time;
they carry each public symbol's macOS `introduced` version even on Linux) for Swift (with _Concurrency and
_StringProcessing) and each toolchain module the scanned files import (Foundation brings FoundationEssentials and
FoundationInternationalization). Each symbol becomes the text a use of it shows: a type or global as a whole word
(`Mutex`, `UInt128`), a nested type as `.Name`, an initialiser as its type and first argument label
(`String(validating:`), a function or method as its name and first label (`withDiscardingTaskGroup(returning:`), a
property or case as `.name`, a macro as `#name`. Text that some symbol available at or below the target also shows
(an older overload such as `URL(string:`, `.count`) cannot be judged without types and is skipped, as is text the
scanned code declares itself (its own `Job` type) and the members of a newer struct, class or enum (only a value
made by a reported API reaches them). Each remaining use in Sources/, Tests/ and Fuzz/ (comments and string
literals blanked, interpolated code kept) is reported unless it sits inside `if`/`while #available(macOS N, *)`,
after `guard #available(macOS N, *) else {…}`, or in a declaration marked `@available(macOS N, *)`, with N at
least the API's version.

Limits: operators and subscripts are not checked (no name to find), nor overloads that differ from an older one
only after the first label; an initialiser reached as `.init(…)` or `Self(…)`, or one a protocol extension gives
its conforming types, is missed; an `@available` on a declaration without a body guards only its own line, and
`#unavailable` guards nothing (both err towards a report). Foundation's availability is swift-foundation's, which
mostly but not always matches the macOS SDK's (corelibs APIs state none); Darwin-only modules are not seen, nor
names our package dependencies declare (a clash with one would show as a report, never as silence). Runs on Linux.
A planted self-test, run first every time (alone with --self-test), proves the check still reports unguarded uses
and spares guarded ones with this toolchain; it fails if the graphs stop carrying macOS availability.
Usage: check_availability.py [--self-test] [ROOT ...] (default: Sources Tests Fuzz).
"""
import json
import os
import re
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from functools import cache

ALWAYS_EXTRACTED = ["Swift"]  # its graphs include _Concurrency's and _StringProcessing's symbols
REEXPORTS = {"Foundation": ["FoundationEssentials", "FoundationInternationalization"]}
TYPE_KINDS = {"swift.struct", "swift.class", "swift.enum", "swift.protocol", "swift.typealias", "swift.actor"}
CALL_KINDS = {"swift.func", "swift.method", "swift.type.method", "swift.init"}
MEMBER_KINDS = {"swift.property", "swift.type.property", "swift.enum.case"}
IDENTIFIER = r"[A-Za-z_][A-Za-z0-9_]*"


# The toolchain's symbols ---------------------------------------------------------------------------------------

def deployment_target(package_file="Package.swift"):
    with open(package_file, encoding="utf-8") as handle:
        match = re.search(r"\.macOS\(\s*\.v(\d+)(?:_(\d+))?\s*\)", handle.read())
    if not match:
        sys.exit(f"check_availability: no .macOS(.vNN) platform in {package_file}")
    return int(match.group(1)), int(match.group(2) or 0)


@cache
def toolchain():
    """The target triple and the folder of the toolchain's modules for this platform."""
    result = subprocess.run(["swiftc", "-print-target-info"], capture_output=True, text=True, check=True)
    info = json.loads(result.stdout)
    modules = os.path.join(info["paths"]["runtimeResourcePath"], info["target"]["platform"])
    return info["target"]["triple"], modules


def modules_to_extract(imports, module_folder):
    """Swift, and each imported module (with what it re-exports) that the toolchain has."""
    wanted = set(ALWAYS_EXTRACTED)
    for name in imports:
        wanted.update([name] + REEXPORTS.get(name, []))
    return sorted(m for m in wanted if os.path.isdir(os.path.join(module_folder, m + ".swiftmodule")))


def extract_symbols(modules, triple, folder):
    """module → every symbol of its graphs (its extensions of other modules included), extracted in parallel and
    without the copies of protocol members in each conforming type (they halve the time and add no API)."""
    def extract(module):
        out = os.path.join(folder, module)
        os.makedirs(out)
        command = ["swift", "symbolgraph-extract", "-module-name", module, "-target", triple, "-output-dir", out,
                   "-skip-synthesized-members"]
        result = subprocess.run(command, capture_output=True, text=True)
        if result.returncode != 0:
            sys.exit(f"check_availability: symbolgraph-extract failed for {module}:\n{result.stderr}")
        symbols = []
        for name in sorted(os.listdir(out)):
            with open(os.path.join(out, name), encoding="utf-8") as handle:
                symbols += json.load(handle)["symbols"]
        return symbols

    with ThreadPoolExecutor() as pool:
        return dict(zip(modules, pool.map(extract, modules)))


def macos_introduced(symbol):
    """(major, minor) the symbol needs on macOS; (0, 0) when it states none; None when macOS lacks it."""
    introduced = (0, 0)
    for entry in symbol.get("availability", []):
        if entry.get("domain") not in ("macOS", "*"):
            continue
        if entry.get("isUnconditionallyUnavailable") or "obsoleted" in entry:
            return None
        if "introduced" in entry:
            introduced = (entry["introduced"]["major"], entry["introduced"].get("minor", 0))
    return introduced


def first_label(title):
    """`init(validating:as:)` → 'validating'; `f(_:)` → '_'; `f()` → ')'."""
    labels = title[title.index("(") + 1:-1]
    return labels.split(":", 1)[0] if labels else ")"


def use_keys(symbol):
    """The text a use of the symbol shows: ('word', name) for a type or global, ('nested', name) for a nested type
    (`.Name`), ('call', name, first label), ('member', name) for a property or case (`.name`, no argument list) or
    ('macro', name). Operators, subscripts and associated types give none."""
    kind, path = symbol["kind"]["identifier"], symbol["pathComponents"]
    title = path[-1]
    if kind in TYPE_KINDS:
        return [("word" if len(path) == 1 else "nested", title)]
    if kind == "swift.var" and len(path) == 1:
        return [("word", title)]
    if kind == "swift.init" and len(path) > 1:
        return [("call", path[-2], first_label(title))]
    if kind in CALL_KINDS and "(" in title and title[0].isidentifier():
        return [("call", title[:title.index("(")], first_label(title))]
    if kind in MEMBER_KINDS or kind == "swift.var":
        return [("member", title.split("(")[0])]
    if kind == "swift.macro":
        return [("macro", title.split("(")[0])]
    return []


def newer_api(symbols, target, declared):
    """key → (macOS version, symbol path) for each use text that only symbols newer than the target show. A member
    of a newer concrete type is left out: only a value of that type reaches it, and what makes one is reported (a
    newer protocol's members stay: an older type may conform)."""
    types = {}
    for symbol in symbols:
        if symbol["kind"]["identifier"] in TYPE_KINDS - {"swift.protocol"} and macos_introduced(symbol):
            path = tuple(symbol["pathComponents"])
            types[path] = min(types.get(path, (99, 0)), macos_introduced(symbol))
    older, newer = set(), {}
    for symbol in symbols:
        introduced, path = macos_introduced(symbol), tuple(symbol["pathComponents"])
        if introduced is None:
            continue
        for key in use_keys(symbol):
            if introduced <= target:
                older.add(key)
            elif types.get(path[:-1], (0, 0)) <= target and (key not in newer or introduced < newer[key][0]):
                newer[key] = (introduced, ".".join(path))
    return {key: value for key, value in newer.items() if key not in older and key not in declared}


# Our sources ---------------------------------------------------------------------------------------------------

CODE_STOPS = re.compile(r'//|/\*|#*"|[()]')


def blank_comments_and_strings(text):
    """The text with comments and string literal contents turned to spaces (newlines kept, so line numbers hold);
    code inside string interpolation `\\(…)` is kept."""
    out, i, n = list(text), 0, len(text)
    stack = [["code", 0]]  # code: open parentheses (to end an interpolation); string: its closing quote and #s
    while i < n:
        top = stack[-1]
        if top[0] == "string":
            i = string_step(text, out, i, stack)
            continue
        stop = CODE_STOPS.search(text, i)
        if not stop:
            break
        i, token = stop.end(), stop.group(0)
        if token == "//":
            end = text.find("\n", i)
            blank(text, out, stop.start(), n if end < 0 else end)
        elif token == "/*":
            i = blank_block_comment(text, out, stop.start())
        elif token.endswith('"'):
            quote = '"""' if text.startswith('"""', stop.start() + len(token) - 1) else '"'
            i = stop.start() + len(token) - 1 + len(quote)
            stack.append(["string", quote + token[:-1]])
        elif token == "(":
            top[1] += 1
        elif top[1] == 0 and len(stack) > 1:
            stack.pop()  # the `)` that ends an interpolation
        else:
            top[1] -= 1
    return "".join(out)


STRING_STOPS = re.compile(r'["\\\n]')


def string_step(text, out, i, stack):
    """Blanks a string literal's contents up to its next quote, backslash or newline, and deals with that;
    returns where to go on."""
    closer = stack[-1][1]
    pounds = "#" * (len(closer) - closer.count('"'))
    stop = STRING_STOPS.search(text, i)
    if not stop:
        blank(text, out, i, len(text))
        return len(text)
    i = stop.start()
    blank(text, out, stop.pos, i)
    if text.startswith(closer, i):
        stack.pop()
        return i + len(closer)
    if text.startswith("\\" + pounds + "(", i):
        stack.append(["code", 0])
        return i + len(pounds) + 2
    if text[i] == "\n" and not closer.startswith('"""'):
        stack.pop()  # an unterminated single-line literal: recover at the line's end
        return i
    end = min(i + (len(pounds) + 2 if text.startswith("\\" + pounds, i) else 1), len(text))
    blank(text, out, i, end)
    return end


def blank(text, out, start, end):
    out[start:end] = re.sub(r"[^\n]", " ", text[start:end])


def blank_block_comment(text, out, start):
    """Blanks a block comment (they nest); returns the index after it."""
    depth, i = 0, start
    while i < len(text):
        if text.startswith("/*", i):
            depth, i = depth + 1, i + 2
        elif text.startswith("*/", i):
            depth, i = depth - 1, i + 2
            if depth == 0:
                break
        else:
            i += 1
    blank(text, out, start, min(i, len(text)))
    return i


TYPE_DECLARATION = re.compile(r"\b(struct|class|enum|protocol|actor|extension|typealias)\s+(?:" + IDENTIFIER + r"\.)*("
                              + IDENTIFIER + r")")
KEYWORDS = {"func", "var", "let", "init", "subscript", "static", "final", "override", "convenience", "required"}
FUNCTION_DECLARATION = re.compile(
    r"\b(func|macro)\s+(" + IDENTIFIER + r")\s*(?:<[^(]*>)?\s*\(\s*(" + IDENTIFIER + r"|\))?")
INIT_DECLARATION = re.compile(r"\binit[?!]?\s*(?:<[^(]*>)?\s*\(\s*(" + IDENTIFIER + r"|\))?")
MEMBER_DECLARATION = re.compile(r"\b(?:var|let|case)\s+(" + IDENTIFIER + r")")
DECLARATION_TOKENS = re.compile(
    r"[{}]|\b(?:struct|class|enum|protocol|actor|extension|typealias|func|macro|init|var|let|case)\b")


def declared_keys(code):
    """The use keys of what the code declares: types, functions and macros anywhere, initialisers (with the type
    or extension around them) and properties and cases directly inside a type."""
    keys, scopes, pending_type = set(), [], None
    for token in DECLARATION_TOKENS.finditer(code):
        word, at = token.group(0), token.start()
        if word == "{":
            scopes.append(pending_type)
            pending_type = None
        elif word == "}":
            if scopes:
                scopes.pop()
        elif word in ("func", "macro"):
            match = FUNCTION_DECLARATION.match(code, at)
            if match and word == "macro":
                keys.add(("macro", match.group(2)))
            elif match:
                keys.add(("call", match.group(2), match.group(3) or ")"))
        elif word == "init":
            match = INIT_DECLARATION.match(code, at)
            if match and scopes and scopes[-1]:
                keys.add(("call", scopes[-1], match.group(1) or ")"))
        elif word in ("var", "let", "case"):
            match = MEMBER_DECLARATION.match(code, at)
            if match and scopes and scopes[-1]:
                keys.add(("member", match.group(1)))
        else:
            match = TYPE_DECLARATION.match(code, at)
            if match and match.group(2) not in KEYWORDS:  # not `class func`
                keys.update({("word", match.group(2)), ("nested", match.group(2))})
                pending_type = match.group(2) if word != "typealias" else pending_type
    return keys


def guard_version(arguments):
    """The macOS version an `#available(…)` or `@available(…)` argument list names, if any."""
    match = re.search(r"\bmacOS(?:ApplicationExtension)?\s*(?:,\s*introduced\s*:)?\s*(\d+)(?:\.(\d+))?", arguments)
    return (int(match.group(1)), int(match.group(2) or 0)) if match else None


ARGUMENT_LIST = re.compile(r"(?:\s*<[^(){};]*>)?(?:\.init)?\s*\(\s*(?:(\)|" + IDENTIFIER + r")\s*(:(?!:))?)?")


def call_label(code, end):
    """The first argument label of an argument list at `end` ('_' for none, ')' for an empty list), or None when
    no argument list follows."""
    match = ARGUMENT_LIST.match(code, end)
    if not match:
        return None
    if match.group(1) == ")":
        return ")"
    return match.group(1) if match.group(2) else "_"


def uses_at(code, match, api):
    """The newer-API keys a name shows, with what precedes and follows it; at most one (the first of: macro,
    type or global, nested type, call, member)."""
    name, start = match.group(2), match.start(2)
    if match.group(1):
        found = [("macro", name)]
    else:
        label = call_label(code, match.end())
        dot = code[start - 1:start] == "."
        found = [("word", name), ("nested" if dot else "", name), ("call", name, label),
                 ("member" if dot and label is None else "", name)]
    return [key for key in found if key in api][:1]


class Scopes:
    """The macOS version each point of a file can count on, from `#available` conditions and `@available`
    attributes, tracked through brace scopes."""

    def __init__(self):
        self.floors = [(0, 0)]       # per open brace scope
        self.gains = []              # per open brace scope: the version its parent gains when it closes
        self.pending = None          # `if/while #available` or `@available`: holds until the next block opens
        self.from_attribute = False  # the pending version is an `@available`'s
        self.pending_guard = None    # `guard #available`: for the rest of the scope, once its else block ends
        self.statement = None        # the last if/guard/while keyword

    def floor(self):
        return max(self.floors[-1], self.pending or (0, 0))

    def token(self, word, code, at):
        if word in ("if", "guard", "while"):
            self.statement = word
        elif word in ("#available", "@available"):
            arguments = re.match(r"[#@]available\s*\(([^)]*)\)", code[at:at + 200])
            version = guard_version(arguments.group(1)) if arguments else None
            if version and word == "#available" and self.statement == "guard":
                self.pending_guard = version
            elif version:
                self.pending, self.from_attribute = version, word == "@available"
        elif word == "{":
            self.floors.append(self.floor())
            self.gains.append(self.pending_guard)
            self.pending = self.pending_guard = None
        elif word == "}" and len(self.floors) > 1:
            self.floors.pop()
            gained = self.gains.pop()
            if gained:
                self.floors[-1] = max(self.floors[-1], gained)

    def line_ends(self, line):
        """An `@available` declaration without a body (a stored property, a requirement) ends with its line."""
        if self.pending and self.from_attribute and "{" not in line and line.count("(") == line.count(")") and \
                re.search(r"\b(var|let|func|init|case|subscript|typealias)\b", line):
            self.pending = None


TOKENS = re.compile(r"\n|[{}]|\b(?:if|guard|while)\b|[#@]available\b|([#@]?)(" + IDENTIFIER + r")")


def check_code(code, api):
    """(line number, key) for each use of a newer API that no guard covers."""
    names = {key[1] for key in api}
    scopes, found, line, line_start = Scopes(), [], 1, 0
    for match in TOKENS.finditer(code):
        word = match.group(0)
        if word == "\n":
            scopes.line_ends(code[line_start:match.start()])
            line, line_start = line + 1, match.end()
            continue
        scopes.token(word, code, match.start())
        if match.group(2) in names:
            found += [(line, key) for key in uses_at(code, match, api)
                      if scopes.floor() < api[key][0] and (line, key) not in found]
    return found


def describe(key, api):
    version, path = api[key]
    shown = {"word": key[1], "nested": "." + key[1], "member": "." + key[1], "macro": "#" + key[1],
             "call": key[1] + "(" + ("" if key[-1] in ("_", ")") else key[-1] + ":")}[key[0]]
    return f"`{shown}` ({path}) needs macOS {version[0]}.{version[1]}"


def swift_files(roots):
    for root in roots:
        for folder, dirs, files in os.walk(root):
            dirs[:] = sorted(d for d in dirs if not d.startswith("."))
            yield from (os.path.join(folder, name) for name in sorted(files) if name.endswith(".swift"))


IMPORT = re.compile(
    r"^[ \t]*(?:@\w+[ \t]+)*import[ \t]+(?:(?:struct|class|enum|protocol|func|var|let|typealias)[ \t]+)?(\w+)", re.M)
_extracted = {}  # module → its symbols, so one run extracts each module once


def symbols_of(modules):
    missing = [m for m in modules if m not in _extracted]
    if missing:
        triple, _ = toolchain()
        with tempfile.TemporaryDirectory() as folder:
            _extracted.update(extract_symbols(missing, triple, folder))
    return [symbol for module in modules for symbol in _extracted[module]]


def check(roots, target):
    """Problems ('path:line: message') in the Swift files under the roots, and how many files were read."""
    codes = {}
    for path in swift_files(roots):
        with open(path, encoding="utf-8", errors="replace") as handle:
            codes[path] = blank_comments_and_strings(handle.read())
    imports = {name for code in codes.values() for name in IMPORT.findall(code)}
    declared = set().union(*map(declared_keys, codes.values()))
    api = newer_api(symbols_of(modules_to_extract(imports, toolchain()[1])), target, declared)
    problems = [f"{path}:{line}: {describe(key, api)}, above the package's macOS {target[0]}.{target[1]}; use an "
                f"older API or guard it with `if #available(macOS {api[key][0][0]}, *)`"
                for path, code in codes.items() for line, key in check_code(code, api)]
    return problems, len(codes)


# Proof that the check bites ------------------------------------------------------------------------------------

# Each line marked REPORT must be reported, and no other. MUTEX: reported unless the project declares a Mutex.
PLANTED = '''import Synchronization

func unguarded(bytes: [UInt8]) async {
    let text = String(validating: bytes, as: UTF8.self)            // REPORT
    let wide: UInt128 = 1                                           // REPORT
    await withDiscardingTaskGroup(returning: Void.self) { _ in }    // REPORT (macOS 14)
    let lock = Mutex(0)                                             // MUTEX
    // String(validating: bytes, as: UTF8.self) in a comment
    let message = "String(validating: \\(bytes.count), as: UTF8.self) in a string"
    _ = (text, wide, lock, message)
}

func guarded(bytes: [UInt8]) {
    if #available(macOS 15, *) {
        _ = String(validating: bytes, as: UTF8.self)
    } else {
        _ = String(validating: bytes, as: UTF8.self)                // REPORT (the else branch)
    }
    guard #available(macOS 15.0, iOS 18.0, *) else { return }
    _ = UInt128(7)
}

@available(macOS 15, *)
struct Wide {
    let value = UInt128(1)
    func text(_ bytes: [UInt8]) -> String? { String(validating: bytes, as: UTF8.self) }
}

@available(macOS 14, *)
func notEnough(bytes: [UInt8]) -> String? {
    String(validating: bytes, as: UTF8.self)                        // REPORT (macOS 14 is too early)
}
'''

# A project that declares its own Mutex: a use of it is not Synchronization's.
PLANTED_OWN_MUTEX = '''struct Mutex {
    init(_ value: Int) {}
}
'''


def marked_lines(*marks):
    return {number for number, line in enumerate(PLANTED.splitlines(), 1) if any(m in line for m in marks)}


def reported_lines(problems, name):
    return {int(problem.split(":")[1]) for problem in problems if os.path.basename(problem.split(":")[0]) == name}


def self_test():
    """What the planted files show when checked against macOS 13: each failure as text."""
    with tempfile.TemporaryDirectory() as folder:
        planted, own = os.path.join(folder, "Planted"), os.path.join(folder, "Own")
        for path, text in ((os.path.join(planted, "Planted.swift"), PLANTED),
                           (os.path.join(own, "Mutex.swift"), PLANTED_OWN_MUTEX)):
            os.makedirs(os.path.dirname(path))
            with open(path, "w", encoding="utf-8") as handle:
                handle.write(text)
        alone, _ = check([planted], (13, 0))
        with_own, _ = check([planted, own], (13, 0))
    failures = []
    expected = marked_lines("// REPORT", "// MUTEX")
    if reported_lines(alone, "Planted.swift") != expected:
        failures.append(f"expected reports on lines {sorted(expected)}, got: {alone}")
    expected = marked_lines("// REPORT")
    if reported_lines(with_own, "Planted.swift") != expected or reported_lines(with_own, "Mutex.swift"):
        failures.append(f"with the project's own Mutex, expected reports on lines {sorted(expected)}, got: {with_own}")
    return failures


def main(arguments):
    failures = self_test()
    if failures:
        print("check_availability: the self-test failed, so the check cannot be trusted:", *failures, sep="\n  ")
        return 1
    if "--self-test" in arguments:
        print("check_availability: self-test passed (the planted unguarded uses are reported, the guarded ones not)")
        return 0
    target = deployment_target()
    roots = [a for a in arguments if not a.startswith("--")] or ["Sources", "Tests", "Fuzz"]
    problems, count = check([root for root in roots if os.path.isdir(root)], target)
    for problem in problems:
        print(problem)
    if problems:
        print(f"{len(problems)} use(s) of an API newer than macOS {target[0]}.{target[1]} outside a guard: "
              "the Mac build would fail")
        return 1
    print(f"no API newer than macOS {target[0]}.{target[1]} outside a guard ({count} files)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
