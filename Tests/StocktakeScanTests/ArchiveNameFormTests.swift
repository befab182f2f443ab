import Foundation
import StocktakeModel
import TestSupport
import Testing

@testable import StocktakeScan

/// A member's name is the same bytes on every platform: libarchive normalises names an archive declares UTF-8
/// (pax `path=`, zip's UTF-8 flag) to NFC on Linux and to NFD on Apple's systems, and keeps a plain tar header's
/// bytes as they are; Stocktake composes every non-ASCII name (NFC), so an archive lists alike everywhere.
@Suite struct ArchiveNameFormTests {
    static let composedCafe = "caf\u{E9}"  // é as one code point (NFC)
    static let decomposedCafe = "cafe\u{301}"  // e + combining acute (NFD)

    @Test func decomposedNamesAreComposed() {
        #expect(ArchiveStream.composed(Array(Self.decomposedCafe.utf8)) == Array(Self.composedCafe.utf8))
        #expect(ArchiveStream.composed(Array(Self.composedCafe.utf8)) == Array(Self.composedCafe.utf8))
        // Hangul and a character with two combining marks in non-canonical order compose as Unicode says.
        #expect(ArchiveStream.composed(Array("\u{1100}\u{1161}".utf8)) == Array("\u{AC00}".utf8))
        #expect(ArchiveStream.composed(Array("a\u{323}\u{302}".utf8)) == Array("\u{1EAD}".utf8))
    }

    @Test func bytesThatAreNotUTF8StayAsTheyAre() {
        let latin1: [UInt8] = [0x63, 0x61, 0x66, 0xE9]  // "café" in Latin-1: not UTF-8
        #expect(ArchiveStream.composed(latin1) == latin1)
        let overlong: [UInt8] = [0xC0, 0xAF]
        #expect(ArchiveStream.composed(overlong) == overlong)
    }

    /// Members named in NFD and in NFC, in a pax tar (UTF-8 declared), a plain GNU tar (bytes as stored) and a zip
    /// with its UTF-8 flag: every one is listed composed, whatever the format.
    @Test(.enabled(if: LibArchiveProbe.enabled, LibArchiveProbe.hint), arguments: ["pax.tar", "gnu.tar", "utf8.zip"])
    func everyFormatListsComposedNames(_ archive: String) throws {
        let tree = try TemporaryTree("archive-names")
        let script = """
            import io, sys, tarfile, zipfile
            path, nfd, nfc = sys.argv[1], sys.argv[2], sys.argv[3]
            names = ["Documents/" + nfd + "-1.txt", "Documents/" + nfc + "-2.txt", "Library/Preferences/p.txt", "tmp/t"]
            if path.endswith(".zip"):
                with zipfile.ZipFile(path, "w") as z:
                    for name in names:
                        z.writestr(name, "x")  # zipfile sets the UTF-8 flag for names beyond ASCII
            else:
                form = tarfile.PAX_FORMAT if path.endswith("pax.tar") else tarfile.GNU_FORMAT
                with tarfile.open(path, "w", format=form, encoding="utf-8") as t:
                    for name in names:
                        info = tarfile.TarInfo(name)
                        info.size = 1
                        t.addfile(info, io.BytesIO(b"x"))
            """
        try ArchiveInputTests.python(script, [tree.path(archive), Self.decomposedCafe, Self.composedCafe])
        let inventory = try ArchiveInput.read(path: tree.path(archive)).inventory
        for suffix in ["-1.txt", "-2.txt"] {
            let composed = "Documents/" + Self.composedCafe + suffix
            #expect(inventory.index(ofPath: Array(composed.utf8)) != nil, "\(archive): no \(composed)")
            let decomposed = "Documents/" + Self.decomposedCafe + suffix
            #expect(
                inventory.index(ofPath: Array(decomposed.utf8)) == nil, "\(archive): \(decomposed) listed decomposed")
        }
    }
}

/// The library is loaded at run time: a file that cannot be loaded, or a library without libarchive's calls,
/// is refused with its reason, and the remedy names what to install.
@Suite struct LibArchiveLoadingTests {
    @Test func aMissingLibraryIsRefusedWithItsReason() throws {
        guard case .failure(let missing) = LibArchive.load(candidates: ["/nonexistent/libarchive-for-a-test.so"]) else {
            Issue.record("a file that does not exist loaded")
            return
        }
        #expect(missing.reason.contains("/nonexistent/libarchive-for-a-test.so"))
        #if os(Linux)
            #expect(missing.remedy.contains("apt-get install libarchive13"))
        #endif
    }

    @Test func aLibraryWithoutLibarchivesCallsIsRefused() throws {
        #if os(Linux)
            // By absolute path, as every library is loaded: the C library in the first system folder holding it.
            let folders = LibArchive.candidates(environment: nil).map { String($0[..<$0.lastIndex(of: "/")!]) }
            let other = try #require(folders.map { $0 + "/libc.so.6" }.first { access($0, F_OK) == 0 })
        #else
            let other = "/usr/lib/libSystem.B.dylib"
        #endif
        guard case .failure(let missing) = LibArchive.load(candidates: [other]) else {
            Issue.record("\(other) was taken for libarchive")
            return
        }
        #expect(missing.reason.contains("has no archive_read_new"))
    }

    @Test func theEnvironmentNamesTheOnlyFileTried() {
        let named = "/opt/lib/libarchive.so.13"
        let candidates = named.withCString { LibArchive.candidates(environment: $0) }
        #expect(candidates == [named])
        #expect("".withCString { LibArchive.candidates(environment: $0) } == LibArchive.candidates(environment: nil))
        #if os(Linux)
            let system = LibArchive.candidates(environment: nil)
            #expect(system.allSatisfy { $0.hasPrefix("/") } && system.contains("/usr/lib64/libarchive.so.13"))
        #else
            #expect(LibArchive.candidates(environment: nil) == ["/usr/lib/libarchive.2.dylib"])
        #endif
    }

    /// Where the probe says the library loads, Stocktake loads it too (the two agree on which file).
    @Test(.enabled(if: LibArchiveProbe.enabled, LibArchiveProbe.hint)) func theSystemLibraryLoads() throws {
        if case .failure(let missing) = LibArchive.shared { Issue.record("libarchive did not load: \(missing.reason)") }
    }
}

/// Without the library, a file that starts as an archive is told apart from any other file by its first bytes.
@Suite struct ArchiveSignatureTests {
    @Test(
        .enabled(
            if: OutsideTools.has("python3") || OutsideTools.required, "needs python3; \(OutsideTools.requirementHint)"))
    func everyFormatReadIsKnownByItsStart() throws {
        let tree = try TemporaryTree("archive-signatures")
        let script = """
            import bz2, gzip, io, lzma, sys, tarfile, zipfile
            folder = sys.argv[1]
            for name, form in [("posix.tar", tarfile.PAX_FORMAT), ("ustar.tar", tarfile.USTAR_FORMAT), ("gnu.tar", tarfile.GNU_FORMAT)]:
                with tarfile.open(folder + "/" + name, "w", format=form) as t:
                    info = tarfile.TarInfo("Documents/a"); info.size = 1; t.addfile(info, io.BytesIO(b"x"))
            with zipfile.ZipFile(folder + "/a.zip", "w") as z: z.writestr("Documents/a", "x")
            zipfile.ZipFile(folder + "/empty.zip", "w").close()
            raw = open(folder + "/ustar.tar", "rb").read()
            open(folder + "/a.tar.gz", "wb").write(gzip.compress(raw))
            open(folder + "/a.tar.bz2", "wb").write(bz2.compress(raw))
            open(folder + "/a.tar.xz", "wb").write(lzma.compress(raw))
            """
        try ArchiveInputTests.python(script, [tree.path("")])
        for name in ["posix.tar", "ustar.tar", "gnu.tar", "a.zip", "empty.zip", "a.tar.gz", "a.tar.bz2", "a.tar.xz"] {
            let start = Array(try Data(contentsOf: URL(fileURLWithPath: tree.path(name))).prefix(512))
            #expect(ArchiveSignature.matches(start), "\(name) not known as an archive")
        }
    }

    @Test func otherFilesAreNotArchives() {
        for start in ["hello\n", "", "PK", "bplist00", "SQLite format 3\0", String(repeating: "u", count: 600)] {
            #expect(!ArchiveSignature.matches(Array(start.utf8)), "\(start.prefix(20)) taken for an archive")
        }
    }
}
