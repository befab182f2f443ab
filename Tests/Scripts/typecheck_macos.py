#!/usr/bin/env python3
"""Typechecks every Swift file of the package for macOS (x86_64 and arm64, at Package.swift's deployment target)
here on Linux, against a stand-in macOS SDK assembled on this machine, so a Mac build cannot break unseen.

Linux compilers ignore Apple's availability and runtime rules; targeting `*-apple-macosx13.0` applies them. What the
stand-in SDK (under .build-macos/sdk) holds, and where each piece comes from:
- The standard library (Swift, _Concurrency, _StringProcessing, Synchronization, Testing, …): the toolchain's own
  `.swiftinterface` files, retargeted. So availability (`String(validating:as:)` is macOS 15) and runtime rules (an
  optional typed-throws closure compared with `!= nil` needs the macOS 15 runtime) are the compiler's own.
- macOS's C headers (fcntl.h, sys/stat.h, spawn.h, dirent.h, …): the `ziglang` wheel's `any-darwin-any` set, fetched
  with pip, plus our own sys/xattr.h (Darwin's prototypes, which that set lacks) and the host's sqlite3.h (the SDK
  ships the same public header). A `Darwin` module over them: `st_mtim` and `environ` do not exist there.
- The Darwin overlay (errno, the non-variadic open/fcntl/ioctl, S_IF*, stdin, POSIXErrorCode): derived from the
  toolchain's Glibc overlay with Linux's parts replaced by Darwin's (signals as `sig_t`, errno names from Darwin's
  sys/errno.h, no `environ`: Apple documents `_NSGetEnviron()` instead).
- Foundation and Dispatch: interfaces the toolchain's SourceKit prints from its binary modules (FoundationEssentials,
  FoundationInternationalization and Foundation merged into one `Foundation`, as on a Mac), keeping swift-foundation's
  `@available(macOS …)`; corelibs APIs carry none, so a Foundation API newer than macOS 13 is caught where
  swift-foundation states it.
- Package dependencies (ArgumentParser, Yams, Crypto; PostgresNIO and its NIO/Logging modules with the trait): the
  interfaces SourceKit prints from this machine's Linux build of them. Their own sources are not typechecked for
  macOS (swift-crypto is CryptoKit there); the run names them.

Then each target of the package (Sources, Tests, TestSupport, and the Fuzz targets) is typechecked in dependency
order for each architecture, without and then with the PostgreSQL trait (the second pass only for the
targets a trait condition changes and what depends on them); any error fails the run.
A planted self-test runs first (alone with --self-test): a typed-throws closure compared in an optional, `environ`,
`st_mtim`, a Glibc-only call outside its guard, and APIs newer than macOS 13 from the standard library and from
Foundation must each fail, and the same file with those lines guarded must pass.
Usage: typecheck_macos.py [--self-test] [--arch x86_64|arm64]. Needs a Linux build of the package's dependencies
(it runs `swift build` for the dependency products it reads, and `--traits PostgreSQL` into .build-postgres).
"""
import argparse
import glob
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
HERE = os.path.join(ROOT, "Tests", "Scripts", "macos-sdk")
WORK = os.path.join(ROOT, ".build-macos")
ZIG_WHEEL = "ziglang==0.17.1"
ARCHES = ["x86_64", "arm64"]
TRAIT = "PostgreSQL"
# Retargeted as they are: the toolchain's real interfaces.
STDLIB = ["Swift", "_Concurrency", "_StringProcessing", "_RegexParser", "Synchronization", "RegexBuilder",
          "_Builtin_float", "Observation", "Distributed", "_Volatile", "SwiftOnoneSupport", "Testing",
          "_Testing_Foundation", "_TestingInterop"]
# The Linux builds whose modules stand in for the package's dependencies: the default one, and the trait's.
BUILDS = {"default": ".build", TRAIT: ".build-postgres"}


def run(command, **kwargs):
    return subprocess.run(command, check=True, **kwargs)


def toolchain():
    info = json.loads(subprocess.run(["swiftc", "-print-target-info"], capture_output=True, text=True,
                                     check=True).stdout)
    resources = info["paths"]["runtimeResourcePath"]
    return os.path.join(resources, info["target"]["platform"]), os.path.dirname(resources)


def deployment_target():
    with open(os.path.join(ROOT, "Package.swift"), encoding="utf-8") as handle:
        match = re.search(r"\.macOS\(\s*\.v(\d+)(?:_(\d+))?\s*\)", handle.read())
    if not match:
        sys.exit("typecheck_macos: no .macOS(.vNN) platform in Package.swift")
    return f"{match.group(1)}.{match.group(2) or 0}"


# Interfaces -----------------------------------------------------------------------------------------------------

def flags_line(module, arch, extra=""):
    version = subprocess.run(["swiftc", "--version"], capture_output=True, text=True).stdout.split("\n")[0]
    return (f"// swift-interface-format-version: 1.0\n// swift-compiler-version: {version.strip()}\n"
            f"// swift-module-flags: -disable-availability-checking "
            f"-target {arch}-apple-macos{deployment_target()} -enable-library-evolution -swift-version 5 "
            f"-module-name {module} {extra}\n")


def retarget(text, arch):
    """A toolchain interface made a macOS one. Its own body is not held to availability (Linux builds state none
    for some internal uses); only our code is. `@backDeployed` needs bodies Linux interfaces omit."""
    text = re.sub(r"-target \S+", f"-target {arch}-apple-macos{deployment_target()}", text, count=1)
    text = text.replace("// swift-module-flags: ", "// swift-module-flags: -disable-availability-checking ", 1)
    text = re.sub(r"(?m)^ *@backDeployed\(.*\)\n", "", text)
    if arch == "arm64":
        # Float80 stays (removing it would take out hundreds of inlinable bodies); only its two C shims, which
        # exist for x86 alone, go. So a Float80 use outside `#if arch(x86_64)` is not caught on arm64.
        text = text.replace("_stdlib_remainderl(self, other)", "0").replace("_stdlib_squareRootl(self)", "0")
    # Linux's Mutex is a futex that asks for the thread id through a shim macOS has not (its Mutex is a lock).
    text = text.replace("_swift_stdlib_gettid()", "Swift.UInt32(0)")
    return text.replace("import Glibc\n", "import Darwin\n")


def remove_declarations(text, predicate):
    """Drops each top-level declaration whose first line matches `predicate`, with its attributes and its body."""
    lines, out, index = text.split("\n"), [], 0
    while index < len(lines):
        line = lines[index]
        if predicate(line) and not line.startswith((" ", "@", "//")):
            while out and out[-1].startswith("@"):
                out.pop()
            depth = line.count("{") - line.count("}")
            index += 1
            while depth > 0 and index < len(lines):
                depth += lines[index].count("{") - lines[index].count("}")
                index += 1
            continue
        out.append(line)
        index += 1
    return "\n".join(out)


def darwin_overlay(modules, arch, headers):
    """The Darwin overlay, from the toolchain's Glibc one: what both share kept, Linux's own parts replaced."""
    with open(os.path.join(modules, "Glibc.swiftmodule", "x86_64-unknown-linux-gnu.swiftinterface")) as handle:
        text = retarget(handle.read(), arch)
    text = text.replace("-module-link-name swiftGlibc", "-module-link-name swiftDarwin")
    text = text.replace("-module-name Glibc", "-module-name Darwin").replace("SwiftGlibc", "Darwin")
    text = text.replace("Glibc.", "Darwin.")
    text = remove_declarations(text, lambda line: re.search(
        r"sighandler_t|var SIG_|var environ|enum POSIXErrorCode|extension Darwin\.POSIXErrorCode", line))
    if arch == "arm64":
        text = remove_declarations(text, lambda line: "Float80" in line)
    with open(os.path.join(headers, "sys", "errno.h")) as handle:
        names = re.findall(r"(?m)^#define\s+(E[A-Z0-9]+)\s+\d+", handle.read())
    cases = "\n".join(f"  case {name}" for name in names if name != "ELAST")
    text += f"""
public var stdin: Swift.UnsafeMutablePointer<Darwin.FILE> {{ get }}
public var stdout: Swift.UnsafeMutablePointer<Darwin.FILE> {{ get }}
public var stderr: Swift.UnsafeMutablePointer<Darwin.FILE> {{ get }}
public var SIG_DFL: Darwin.sig_t? {{ get }}
public var SIG_IGN: Darwin.sig_t {{ get }}
public var SIG_ERR: Darwin.sig_t {{ get }}
public var SIG_HOLD: Darwin.sig_t {{ get }}
@available(*, unavailable, message: "Please use threads or posix_spawn*()")
public func fork() -> Swift.Int32
@available(*, unavailable, message: "Please use threads or posix_spawn*()")
public func vfork() -> Swift.Int32
public enum POSIXErrorCode : Swift.Int32, Swift.Sendable {{
{cases}
}}
"""
    return text


def synthesized(module, search_paths=(), module_maps=()):
    """A binary module's interface as the toolchain prints it for reading (`swift-synthesize-interface`, what an
    editor shows as a module's generated interface), types fully qualified and `@available` attributes kept."""
    command = ["swift-synthesize-interface", "-module-name", module, "-target", "x86_64-unknown-linux-gnu",
               "-print-fully-qualified-types", "-o", "/dev/stdout"]
    for path in search_paths:
        command += ["-I", path]
    for path in module_maps:
        command += ["-Xcc", f"-fmodule-map-file={path}"]
    result = subprocess.run(command, capture_output=True, text=True)
    text = result.stdout
    if result.returncode != 0:
        sys.exit(f"typecheck_macos: cannot print {module}'s interface: {result.stderr.strip()}")
    if not text.strip() and not search_paths:
        sys.exit(f"typecheck_macos: the toolchain printed no interface for {module}")
    return text  # a dependency's module may have no public API (swift-collections' internal utilities)


# NSRange is a C struct the printer names without its type, and its Swift API (ranges of a String) lives in
# extensions of that C type, which it leaves out: stated here as Foundation declares them.
NS_RANGE = """public typealias NSRange = Foundation._NSRange
public struct _NSRange : Swift.Hashable, Swift.Sendable {
  public var location: Swift.Int
  public var length: Swift.Int
  public init()
  public init(location: Swift.Int, length: Swift.Int)
  public var lowerBound: Swift.Int { get }
  public var upperBound: Swift.Int { get }
  public init<R>(_ region: R) where R : Swift.RangeExpression, R.Bound : Swift.FixedWidthInteger
  public init<R, S>(_ region: R, in target: S) where R : Swift.RangeExpression, S : Swift.StringProtocol, R.Bound == Swift.String.Index
}
extension Swift.Range where Bound == Swift.Int {
  public init?(_ range: Foundation.NSRange)
}
extension Swift.Range where Bound == Swift.String.Index {
  public init?(_ range: Foundation.NSRange, in string: some Swift.StringProtocol)
}"""


def printable(text, dispatch=False):
    """What SourceKit prints for reading made compilable: a subscript's or constant's accessors, which it leaves
    out or prints where Swift takes none, restored; a typealias to a C type (NSRange) given one."""
    text = re.sub(r"(?m)^(\s*(?:@\w+(?:\([^)]*\))? )*(?:public |open )(?:static |class |final )*)let (\w+: .*) \{ get \}$",
                  r"\1var \2 { get }", text)
    text = re.sub(r"(?m)^(\s*(?:[@\w]+ )*subscript\b[^\n{]*)$", r"\1 { get }", text)
    text = re.sub(r"(?m)^public typealias NSRange$", lambda _: NS_RANGE, text)
    # A property printed without accessors (stored, or in an extension) gets them; setters' access is moot here.
    text = re.sub(r"(?m)^(\s*(?:@[\w.]+(?:\([^)]*\))? )*(?:public |open )(?:[\w()]+ )*var [^{=\n]*)$", r"\1 { get set }",
                  text)
    text = re.sub(r"(?m)^(\s*)@inlinable (public (?:[\w()]+ )*var [^{=\n]*\{ get set \})$", r"\1\2", text)
    text = re.sub(r"\b(?:internal|private|fileprivate)\(set\) ", "", text)
    # A raw-value enum's synthesized members, which an interface states and the printer does not.
    text = re.sub(r"(?m)^(\s*)((?:public |open )(?:[\w()]+ )*enum \w+ : (Swift\.(?:String|U?Int\d*|Character))\b.*\{)$",
                  r"\1\2\n\1    public init?(rawValue: \3)\n\1    public typealias RawValue = \3\n"
                  r"\1    public var rawValue: \3 { get }", text)
    # Dispatch's objects on Linux override an initialiser of a base class the printer does not show.
    text = re.sub(r"(?m)^(\s*)override public init\(\)$", r"\1public init()", text) if dispatch else text
    # Extensions of a type the printer did not print (internal on Linux).
    return remove_declarations(text, lambda line: line.startswith("extension") and "URL.Template.Element" in line)


# Linux's own C and internal modules behind the printed interfaces: not on a Mac, and not named in their public API.
LINUX_ONLY_IMPORTS = {"CDispatch", "_FoundationCShims", "CoreFoundation", "_FoundationCollections", "SwiftGlibc"}


# Foundation's parts on Linux, under names no Mac has: `import FoundationEssentials` fails here as it does there, while
# the stand-in `Foundation` re-exports them.
FOUNDATION_PARTS = {"FoundationEssentials": "_StandInFoundationEssentials",
                    "FoundationInternationalization": "_StandInFoundationInternationalization"}


def printed_interface(text, module, arch, renames=None, exports=()):
    """A printed interface made a stand-in module's: Linux's C modules dropped (their types are Darwin's on a Mac,
    Dispatch's own C types aside), Foundation's parts renamed and re-exported."""
    body, imports = [], {"Darwin", "_Concurrency", "_StringProcessing"}
    for line in text.split("\n"):
        match = re.match(r"^(?:@_exported )?import (\w+)", line)
        if match:
            if match.group(1) not in LINUX_ONLY_IMPORTS:
                imports.add(match.group(1))
            continue
        body.append(line)
    # On a Mac, Foundation brings Darwin and Dispatch with it.
    exported = {"Darwin", "Dispatch", *FOUNDATION_PARTS} if module == "Foundation" else set(exports)
    header = flags_line(module, arch, "-enable-experimental-feature NonescapableTypes "
                        "-enable-experimental-feature LifetimeDependence")
    text = header + "".join(("@_exported " if name in exported else "") + f"import {name}\n"
                            for name in sorted(imports - {"Glibc"})) + printable("\n".join(body), module == "Dispatch")
    text = re.sub(r"\bCDispatch\.(dispatch_)", r"Dispatch.\1", text)
    text = re.sub(r"\b(?:SwiftGlibc|Glibc|CDispatch)\.", "Darwin.", text)
    for name, stand_in in (renames or FOUNDATION_PARTS).items():
        text = re.sub(rf"\b{name}\b", stand_in, text)
    return text


def interface_errors(sdk, module, path, search=()):
    """The lines of `path` (module's stand-in interface) that fail when a file importing it is typechecked."""
    with tempfile.TemporaryDirectory() as folder:
        probe = os.path.join(folder, "probe.swift")
        with open(probe, "w") as handle:
            handle.write(f"import {module}\n")
        command = swiftc(ARCHES[0], sdk) + ["-typecheck", probe] + [f"-I{path}" for path in search]
        result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode == 0:
        return set()
    # An error's line, or where a compiler crash was typechecking (its stack dump names the declaration).
    found = {int(m.group(1)) for m in re.finditer(rf"(?m)^{re.escape(path)}:(\d+):\d+: error:", result.stderr)}
    found |= {int(m.group(1)) for m in re.finditer(rf"\(at {re.escape(path)}:(\d+):\d+\)", result.stderr)}
    if not found:
        sys.exit(f"typecheck_macos: importing the stand-in {module} fails outside it:\n{result.stderr[-3000:]}")
    return found


def swiftc(arch, sdk):
    """The compiler as a Mac's would run: the architecture's triple at the deployment target, the stand-in SDK. No
    Objective-C interop: the stand-in standard library is Linux's, which has none (our code uses none)."""
    return ["swiftc", "-target", f"{arch}-apple-macosx{deployment_target()}", "-sdk", sdk, "-module-cache-path",
            os.path.join(WORK, "module-cache"), "-Xfrontend", "-disable-objc-interop"]


def remove_enclosing(text, numbers):
    """Drops the top-level declarations (with their attributes and bodies) that hold the given 1-based lines."""
    lines = text.split("\n")
    starts = [i for i, line in enumerate(lines) if line and not line[0].isspace()
              and not line.startswith(("@", "//", "}", "#", "import "))]
    drop = set()
    for number in numbers:
        line = lines[number - 1]
        if line[:1].isspace() and line.count("{") == line.count("}"):
            # A member declared on one line: it alone goes, with its attributes.
            first = number - 1
            while first > 0 and lines[first - 1].lstrip().startswith("@"):
                first -= 1
            drop.update(range(first, number))
            continue
        start = max((i for i in starts if i <= number - 1), default=None)
        if start is None:
            continue
        first = start
        while first > 0 and lines[first - 1].startswith("@"):
            first -= 1
        depth, end = 0, start
        while end < len(lines):
            depth += lines[end].count("{") - lines[end].count("}")
            if depth <= 0 and ("{" in "".join(lines[start:end + 1]) or end == start):
                break
            end += 1
        drop.update(range(first, end + 1))
    return "\n".join(line for i, line in enumerate(lines) if i not in drop)


# The stand-in SDK -----------------------------------------------------------------------------------------------

def darwin_headers(folder):
    """macOS's C headers from the ziglang wheel (fetched once into .build-macos/wheels), plus ours."""
    wheels = os.path.join(WORK, "wheels")
    found = [name for name in os.listdir(wheels) if name.endswith(".whl")] if os.path.isdir(wheels) else []
    if not found:
        run([sys.executable, "-m", "pip", "download", "-q", "--no-deps", "-d", wheels, ZIG_WHEEL])
        found = [name for name in os.listdir(wheels) if name.endswith(".whl")]
    prefix = "ziglang/lib/libc/include/any-darwin-any/"
    with zipfile.ZipFile(os.path.join(wheels, found[0])) as wheel:
        for member in wheel.namelist():
            if member.startswith(prefix) and not member.endswith("/"):
                target = os.path.join(folder, member[len(prefix):])
                os.makedirs(os.path.dirname(target), exist_ok=True)
                with wheel.open(member) as source, open(target, "wb") as sink:
                    shutil.copyfileobj(source, sink)
    shutil.copy(os.path.join(HERE, "xattr.h"), os.path.join(folder, "sys", "xattr.h"))
    for header in ["sqlite3.h", "sqlite3ext.h"]:
        if os.path.exists(os.path.join("/usr/include", header)):
            shutil.copy(os.path.join("/usr/include", header), folder)
    shutil.copy(os.path.join(HERE, "module.modulemap"), folder)
    shutil.copy(os.path.join(HERE, "Darwin.h"), folder)


def assemble_sdk(modules):
    """The stand-in SDK, rebuilt when this script, its stand-in files or the toolchain change."""
    sdk = os.path.join(WORK, "sdk")
    digest = hashlib.sha256()
    for path in [__file__] + sorted(os.path.join(HERE, n) for n in os.listdir(HERE)):
        with open(path, "rb") as handle:
            digest.update(handle.read())
    digest.update(subprocess.run(["swiftc", "--version"], capture_output=True).stdout)
    stamp = os.path.join(sdk, "stamp")
    if os.path.exists(stamp) and open(stamp).read() == digest.hexdigest():
        return sdk
    shutil.rmtree(sdk, ignore_errors=True)
    headers = os.path.join(sdk, "usr", "include")
    darwin_headers(headers)
    with open(os.path.join(sdk, "SDKSettings.json"), "w") as handle:
        version = deployment_target()
        json.dump({"CanonicalName": f"macosx{version}", "Version": version, "IsBaseSDK": "YES",
                   "DisplayName": f"stand-in macOS {version}", "DefaultDeploymentTarget": version,
                   "MaximumDeploymentTarget": f"{version}.99"}, handle)
    def put(module, arch, text):
        folder = os.path.join(sdk, "usr", "lib", "swift", module + ".swiftmodule")
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, f"{arch}-apple-macos.swiftinterface"), "w") as handle:
            handle.write(text)
        return os.path.join(folder, f"{arch}-apple-macos.swiftinterface")

    for arch in ARCHES:
        for module in STDLIB:
            with open(os.path.join(modules, module + ".swiftmodule", "x86_64-unknown-linux-gnu.swiftinterface")) as f:
                put(module, arch, retarget(f.read(), arch))
        put("Darwin", arch, darwin_overlay(modules, arch, headers))
    # Printed interfaces, in dependency order, each pruned of what does not compile as an interface.
    printed = [("Dispatch", synthesized("Dispatch") + "\npublic typealias dispatch_time_t = Swift.UInt64\n"
                "public typealias dispatch_fd_t = Swift.Int32\n")]
    printed += [(FOUNDATION_PARTS.get(name, name), synthesized(name) + SUPPLEMENTS.get(name, ""))
                for name in [*FOUNDATION_PARTS, "Foundation"]]
    pruned = []
    for module, text in printed:
        texts = {arch: printed_interface(text, module, arch) for arch in ARCHES}
        pruned += prune_until_built(sdk, os.path.join(sdk, "usr", "lib", "swift"), module, texts)
    with open(os.path.join(sdk, "pruned.txt"), "w") as handle:
        handle.write("\n".join(pruned) + "\n")
    with open(stamp, "w") as handle:
        handle.write(digest.hexdigest())
    return sdk


def prune_until_built(sdk, folder, module, texts, search=()):
    """Writes `texts` (arch → interface) as module's stand-in under folder, dropping what fails to compile as an
    interface until it builds. Returns the dropped declarations' first lines."""
    def put(arch, text):
        path = os.path.join(folder, module + ".swiftmodule", f"{arch}-apple-macos.swiftinterface")
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as handle:
            handle.write(text)
        return path

    pruned = []
    for _ in range(10):
        path = {arch: put(arch, texts[arch]) for arch in texts}[ARCHES[0]]
        errors = interface_errors(sdk, module, path, search)
        if not errors:
            return pruned
        lines = texts[ARCHES[0]].split("\n")
        pruned += [f"{module}:{n}: {lines[n - 1].strip()[:160]}" for n in sorted(errors)]
        texts = {arch: remove_enclosing(texts[arch], errors) for arch in texts}
    sys.exit(f"typecheck_macos: the stand-in {module} does not compile: {path}")


# Package dependencies --------------------------------------------------------------------------------------------

# Public conformances a printed interface loses because they come through an internal protocol (swift-crypto's
# digests are `Digest`, and its hash functions `HashFunction`, through internal ones).
# And the bridging of String to NSString and of errors to NSError (`as NSString`, `as NSError`), which the printer
# leaves out as underscored API.
SUPPLEMENTS = {"Foundation": """
extension Swift.String : Swift._ObjectiveCBridgeable {
  public typealias _ObjectiveCType = Foundation.NSString
  public func _bridgeToObjectiveC() -> Foundation.NSString
  public static func _forceBridgeFromObjectiveC(_ source: Foundation.NSString, result: inout Swift.String?)
  public static func _conditionallyBridgeFromObjectiveC(_ source: Foundation.NSString, result: inout Swift.String?) -> Swift.Bool
  public static func _unconditionallyBridgeFromObjectiveC(_ source: Foundation.NSString?) -> Swift.String
}
public func _convertErrorToNSError(_ error: any Swift.Error) -> Foundation.NSError
public func _convertNSErrorToError(_ error: Foundation.NSError?) -> any Swift.Error
""", "Crypto": "".join(f"\nextension Crypto.{name}Digest : Crypto.Digest {{}}\n"
                            f"extension Crypto.{name} : Crypto.HashFunction {{}}\n"
                            for name in ["SHA256", "SHA384", "SHA512", "Insecure.SHA1", "Insecure.MD5"])}


def exported_imports(build, module):
    """The modules a dependency's module re-exports (`@_exported import`), which its printed interface does not say:
    read from its sources in the build's checkouts."""
    found = set()
    for folder in glob.glob(os.path.join(ROOT, build, "checkouts", "*", "Sources", module)):
        for dirpath, _, names in os.walk(folder):
            for name in names:
                if name.endswith(".swift"):
                    with open(os.path.join(dirpath, name), encoding="utf-8", errors="replace") as handle:
                        found.update(re.findall(r"@_exported import (?:\w+ )?(\w+)", handle.read()))
    return found


def dependency_stand_ins(sdk, build, modules, toolchain_modules):
    """Stand-ins for the package modules our code imports from other packages, printed from `build` (a Linux build
    of them), with each Swift module they import in turn. Their C modules are dropped (on a Mac swift-crypto is
    CryptoKit, and no C type is in the API our code uses)."""
    folder = os.path.join(WORK, "dependencies", build.lstrip("."))
    products = os.path.join(ROOT, build, "debug", "Modules")
    maps = [os.path.join(dirpath, "module.modulemap") for dirpath, _, names in os.walk(os.path.join(ROOT, build))
            if "module.modulemap" in names and ("/checkouts/" in dirpath or dirpath.endswith(".build"))]
    renames = {"FoundationEssentials": "Foundation", "FoundationInternationalization": "Foundation"}
    done, pruned, order = set(), [], []

    def visit(module):
        if module in done:
            return
        done.add(module)
        text = synthesized(module, [products], maps)
        for name in re.findall(r"(?m)^(?:@_exported )?import (\w+)", text):
            if os.path.exists(os.path.join(products, name + ".swiftmodule")):
                visit(name)
            elif not (os.path.isdir(os.path.join(toolchain_modules, name + ".swiftmodule"))
                      or name in ("Glibc", "Foundation", *FOUNDATION_PARTS)):
                LINUX_ONLY_IMPORTS.add(name)
        order.append((module, text))

    for module in modules:
        visit(module)
    for module, text in order:
        text += SUPPLEMENTS.get(module, "")
        exports = exported_imports(build, module)
        texts = {arch: printed_interface(text, module, arch, renames, exports) for arch in ARCHES}
        pruned += prune_until_built(sdk, folder, module, texts, [folder])
    return folder, pruned


# The package ------------------------------------------------------------------------------------------------------

def package_targets():
    """Every target of the package, the Fuzz targets included, as `swift package describe` gives them."""
    environment = dict(os.environ, STOCKTAKE_FUZZ="1")
    described = subprocess.run(["swift", "package", "describe", "--type", "json"], cwd=ROOT, env=environment,
                               capture_output=True, text=True, check=True).stdout
    return {target["name"]: target for target in json.loads(described)["targets"]}


def in_dependency_order(targets):
    order, seen = [], set()

    def visit(name):
        if name not in seen:
            seen.add(name)
            for dependency in targets[name].get("target_dependencies") or []:
                visit(dependency)
            order.append(name)
    for name in sorted(targets):
        visit(name)
    return order


def c_module_flags(targets, folder):
    """Our C modules as SwiftPM presents them: system libraries by their own module maps, a C target by one made
    over its include folder; and each C target's sources checked as C for the Mac."""
    flags = []
    for target in targets.values():
        path = os.path.join(ROOT, target["path"])
        if target["type"] == "system-target":
            flags += ["-Xcc", f"-fmodule-map-file={os.path.join(path, 'module.modulemap')}"]
        elif target.get("module_type") == "ClangTarget":
            include = os.path.join(path, "include")
            module_map = os.path.join(folder, target["name"] + ".modulemap")
            with open(module_map, "w") as handle:
                handle.write(f'module {target["name"]} {{\n  umbrella "{include}"\n  export *\n}}\n')
            flags += ["-Xcc", f"-fmodule-map-file={module_map}", "-Xcc", f"-I{include}"]
    return flags


def check_c_sources(targets, sdk, arch):
    failures = []
    for target in targets.values():
        if target.get("module_type") != "ClangTarget":
            continue
        for source in target.get("sources", []):
            path = os.path.join(ROOT, target["path"], source)
            result = subprocess.run(["clang", "-fsyntax-only", "-target", f"{arch}-apple-macosx{deployment_target()}",
                                     "-isysroot", sdk, "-I", os.path.join(ROOT, target["path"], "include"), path],
                                    capture_output=True, text=True)
            if result.returncode != 0:
                failures.append(result.stderr)
    return failures


def typecheck(sdk, arch, targets, names, dependencies, defines, output, upstream=None):
    """Each named Swift target typechecked in full, in dependency order; those other targets import are emitted as
    modules into `output` for them. Returns the compiler's errors, by target."""
    os.makedirs(output, exist_ok=True)
    flags = c_module_flags(targets, output)
    failures = []
    for name in in_dependency_order(targets):
        target = targets[name]
        if name not in names or target.get("module_type") != "SwiftTarget":
            continue
        sources = [os.path.join(ROOT, target["path"], source) for source in target["sources"]]
        embedded = [resource["path"] for resource in target.get("resources", [])
                    if "embed_in_code" in resource["rule"]]
        if embedded:
            sources.append(embedded_resources(embedded, os.path.join(output, name + "-embedded_resources.swift")))
        # A module another target imports is emitted (which typechecks it whole); a leaf is only typechecked.
        imported = any(name in (other.get("target_dependencies") or []) for other in targets.values())
        emit = ["-emit-module", "-emit-module-path", os.path.join(output, name + ".swiftmodule")]
        command = swiftc(arch, sdk) + (emit if imported else ["-typecheck"]) + ["-module-name", name,
            "-package-name", "stocktake", "-swift-version", "6", "-enable-testing", "-D", "DEBUG", "-D",
            "SWIFT_PACKAGE", "-I", output, "-I", upstream or output, "-I", dependencies, "-parse-as-library"]
        command += flags + sources
        for define in defines:
            command += ["-D", define]
        result = subprocess.run(command, capture_output=True, text=True)
        errors = [line for line in result.stderr.split("\n") if re.match(r"^\S+:\d+:\d+: error:", line)]
        if result.returncode != 0:
            failures.append((name, errors or [result.stderr.strip()[-2000:]]))
    return failures


def embedded_resources(paths, output):
    """The `PackageResources` SwiftPM generates for `.embedInCode` resources (each file's bytes, named after the
    file), written to `output` for a target typechecked here; returns its path."""
    lines = ["struct PackageResources {"]
    for path in paths:
        with open(path, "rb") as handle:
            name = re.sub(r"[^A-Za-z0-9_]", "_", os.path.basename(path))
            lines.append(f"static let {name}: [UInt8] = [{','.join(str(byte) for byte in handle.read())}]")
    with open(output, "w", encoding="utf-8") as handle:
        handle.write("\n".join(lines + ["}", ""]))
    return output


def dependents(targets, roots):
    """`roots` and every target that depends on one of them, directly or not."""
    found = set(roots)
    changed = True
    while changed:
        changed = False
        for name, target in targets.items():
            if name not in found and found & set(target.get("target_dependencies") or []):
                found.add(name)
                changed = True
    return found


def trait_targets(targets):
    """The targets whose sources a trait condition changes (`#if PostgreSQL`), and what depends on them."""
    roots = set()
    for name, target in targets.items():
        for source in target.get("sources", []):
            with open(os.path.join(ROOT, target["path"], source), encoding="utf-8", errors="replace") as handle:
                if re.search(rf"(?m)^\s*#(?:if|elseif)\b.*\b{TRAIT}\b", handle.read()):
                    roots.add(name)
    return dependents(targets, roots)


# The self-test ----------------------------------------------------------------------------------------------------

# Each planted Mac-only error, and the same intent written as it builds on a Mac.
PLANTED = {
    "typed-throws closure compared in an optional": (
        "struct E: Error {}\nfunc g(_ f: (() throws(E) -> Void)?) -> Bool { f != nil }\n",
        "struct E: Error {}\nfunc g(_ f: (() throws(E) -> Void)?) -> Bool { if case .some = f { true } else { false } }\n"),
    "environ": (
        "import Darwin\nfunc g() -> UnsafeMutablePointer<UnsafeMutablePointer<CChar>?> { environ }\n",
        "import Darwin\nfunc g() -> UnsafeMutablePointer<UnsafeMutablePointer<CChar>?> { _NSGetEnviron().pointee! }\n"),
    "Linux-only stat field (st_mtim)": (
        "import Darwin\nfunc g(_ s: stat) -> Int { s.st_mtim.tv_sec }\n",
        "import Darwin\nfunc g(_ s: stat) -> Int {\n#if os(Linux)\n s.st_mtim.tv_sec\n#else\n"
        " s.st_mtimespec.tv_sec\n#endif\n}\n"),
    "Glibc-only call outside its guard": (
        "#if canImport(Glibc)\nimport Glibc\n#else\nimport Darwin\n#endif\n"
        "func g(_ fd: Int32) -> Int32 { sync_file_range(fd, 0, 0, 2) }\n",
        "#if canImport(Glibc)\nimport Glibc\n#else\nimport Darwin\n#endif\n"
        "func g(_ fd: Int32) -> Int32 {\n#if os(Linux)\n sync_file_range(fd, 0, 0, 2)\n#else\n fsync(fd)\n#endif\n}\n"),
    "standard-library API newer than macOS 13": (
        "func g(_ b: [UInt8]) -> String? { String(validating: b, as: UTF8.self) }\n",
        "func g(_ b: [UInt8]) -> String? {\n if #available(macOS 15, *) { return String(validating: b, as: UTF8.self) }\n"
        " return String(decoding: b, as: UTF8.self)\n}\n"),
    "Foundation API newer than macOS 13": (
        "import Foundation\nfunc g() -> Any { Calendar.RecurrenceRule(calendar: .current, frequency: .daily) }\n",
        "import Foundation\nfunc g() -> Any {\n if #available(macOS 15, *) {\n"
        "  return Calendar.RecurrenceRule(calendar: .current, frequency: .daily)\n }\n return 0\n}\n"),
}


def self_test(sdk, dependencies):
    """Each planted kind must fail the check on both architectures, and its guarded twin pass."""
    problems = []
    with tempfile.TemporaryDirectory() as folder:
        for index, (kind, (planted, guarded)) in enumerate(PLANTED.items()):
            for variant, text, should_fail in [("planted", planted, True), ("guarded", guarded, False)]:
                source = os.path.join(folder, f"Planted{index}{variant}.swift")
                with open(source, "w") as handle:
                    handle.write(text)
                target = {"name": f"Planted{index}", "path": folder, "type": "library", "module_type": "SwiftTarget",
                          "sources": [os.path.basename(source)]}
                for arch in ARCHES:
                    failed = typecheck(sdk, arch, {target["name"]: target}, {target["name"]}, dependencies, [],
                                       os.path.join(folder, arch))
                    if bool(failed) != should_fail:
                        said = "; ".join(" ".join(errors) for _, errors in failed)
                        problems.append(f"{kind} ({variant}, {arch}): "
                                        + ("not caught" if should_fail else f"refused: {said}"))
    return problems


# Main ---------------------------------------------------------------------------------------------------------------

def imported_dependencies(targets, build):
    """The modules our sources import that `build` made from other packages (not our targets, not the SDK's)."""
    products = os.path.join(ROOT, build, "debug", "Modules")
    names = set()
    for target in targets.values():
        for source in target.get("sources", []):
            with open(os.path.join(ROOT, target["path"], source), encoding="utf-8", errors="replace") as handle:
                names.update(re.findall(r"(?m)^\s*(?:@testable |@_exported )?import (\w+)", handle.read()))
    return sorted(n for n in names - set(targets) if os.path.exists(os.path.join(products, n + ".swiftmodule")))


def ensure_built(build, arguments):
    """A Linux build of the package (its dependencies' modules are what the stand-ins are printed from)."""
    if not os.path.exists(os.path.join(ROOT, build, "debug", "Modules", "ArgumentParser.swiftmodule")):
        print(f"--- building the package on Linux first (swift build {' '.join(arguments)})", flush=True)
        run(["swift", "build", "--scratch-path", build] + arguments, cwd=ROOT, stdout=subprocess.DEVNULL)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--self-test", action="store_true", help="only the planted self-test")
    parser.add_argument("--arch", choices=ARCHES, help="one architecture only")
    options = parser.parse_args()
    if options.arch:
        ARCHES[:] = [options.arch]
    modules, _ = toolchain()
    os.makedirs(WORK, exist_ok=True)
    sdk = assemble_sdk(modules)
    targets = package_targets()
    ensure_built(BUILDS["default"], [])
    dependencies, pruned = dependency_stand_ins(sdk, BUILDS["default"],
                                                imported_dependencies(targets, BUILDS["default"]), modules)
    problems = self_test(sdk, dependencies)
    if problems:
        print("typecheck_macos: the self-test failed; the check cannot be trusted:\n  " + "\n  ".join(problems))
        return 1
    print(f"self-test: {len(PLANTED)} planted Mac-only errors caught on {', '.join(ARCHES)}, their guarded twins pass")
    if options.self_test:
        return 0

    def each_arch(names, dependencies, defines, suffix=""):
        def one(arch):
            base = os.path.join(WORK, "modules", arch)
            return [(arch, name, errors) for name, errors in
                    typecheck(sdk, arch, targets, names, dependencies, defines, base + suffix, base)]
        with ThreadPoolExecutor(len(ARCHES)) as pool:
            return [failure for failures in pool.map(one, ARCHES) for failure in failures]

    shutil.rmtree(os.path.join(WORK, "modules"), ignore_errors=True)  # no module of an earlier run stands in
    failures = each_arch(set(targets), dependencies, [])
    ensure_built(BUILDS[TRAIT], ["--traits", TRAIT])
    trait_dependencies, trait_pruned = dependency_stand_ins(sdk, BUILDS[TRAIT],
                                                            imported_dependencies(targets, BUILDS[TRAIT]), modules)
    with_trait = trait_targets(targets)
    failures += [(arch, f"{name} (--traits {TRAIT})", errors) for arch, name, errors in
                 each_arch(with_trait, trait_dependencies, [TRAIT], "-" + TRAIT)]
    swift_targets = [n for n, t in targets.items() if t.get("module_type") == "SwiftTarget"]
    c_failures = check_c_sources(targets, sdk, ARCHES[0])
    failed = bool(failures)
    for arch, name, errors in failures:
        print(f"error: {name} does not typecheck for {arch}-apple-macosx{deployment_target()}:")
        print("\n".join("  " + line for line in errors[:40]))
    for failure in c_failures:
        failed = True
        print(f"error: C sources do not compile for macOS:\n{failure}")
    print(f"typechecked for macOS {deployment_target()} ({', '.join(ARCHES)}): {len(swift_targets)} Swift targets "
          f"(Sources, Tests, TestSupport, Fuzz), then {len(with_trait)} again with --traits {TRAIT}")
    print("not typechecked for macOS, only their interfaces as this Linux build prints them: the sources of "
          "swift-argument-parser, Yams and swift-crypto, and with the trait postgres-nio, swift-nio, swift-nio-ssl and "
          f"swift-log; {len(pruned) + len(trait_pruned)} of their declarations and "
          f"{sum(1 for _ in open(os.path.join(sdk, 'pruned.txt')))} of Foundation's and Dispatch's left out of the "
          f"stand-ins as not compilable from a printed interface (listed in {os.path.relpath(WORK, ROOT)}/sdk/pruned.txt and "
          "dependencies/pruned.txt)")
    with open(os.path.join(WORK, "dependencies", "pruned.txt"), "w") as handle:
        handle.write("\n".join(pruned + trait_pruned) + "\n")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
