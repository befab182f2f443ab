import Foundation
import StocktakeModel
import StocktakeScan
import TestSupport
import Testing

private let metadataFile = ".com.apple.mobile_container_manager.metadata.plist"

/// An XML plist holding one dictionary of strings, as Xcode and the simulator write them.
private func plist(_ entries: [String: String]) -> String {
    let body = entries.sorted { $0.key < $1.key }.map { "<key>\($0.key)</key><string>\($0.value)</string>" }.joined()
    return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\"><dict>\(body)</dict></plist>\n"
}

/// The absolute path with every symbolic link resolved (the temporary folder may sit behind one).
private func resolved(_ path: String) -> String {
    guard let pointer = realpath(path, nil) else { return path }
    defer { free(pointer) }
    return String(cString: pointer)
}

private func makeStandardFolders(
    _ tree: TemporaryTree, in folder: String, _ names: [String] = ["Documents", "Library", "tmp"]
) throws {
    for name in names { try tree.mkdir(folder.isEmpty ? name : folder + "/" + name) }
}

@Suite("Container layouts")
struct ContainerLayoutTests {
    @Test func recognisesAnXcappdataPackage() throws {
        let tree = try TemporaryTree()
        try makeStandardFolders(tree, in: "App.xcappdata/AppData")
        try tree.write(
            "App.xcappdata/AppDataInfo.plist",
            string: plist(["CFBundleIdentifier": "com.example.app", "XCExecutableVersion": "42"]))
        let input = tree.path("App.xcappdata")
        let container = try ContainerSource.identify(path: input)
        #expect(container.layout == .xcappdata)
        #expect(container.inputPath == input)
        #expect(container.rootPath == resolved(input) + "/AppData")
        #expect(container.bundleIdentifier == "com.example.app")
        #expect(container.bundleIdentifierSource == .appDataInfo)
        #expect(
            container.metadata == [
                MetadataDocument(
                    path: "AppDataInfo.plist",
                    value: .dictionary([
                        "CFBundleIdentifier": .string("com.example.app"), "XCExecutableVersion": .string("42"),
                    ]),
                    problem: nil)
            ])
    }

    @Test("the export time is AppDataInfo.plist's modification time (an .xcappdata) or the input folder's")
    func exportTime() throws {
        let tree = try TemporaryTree()
        try makeStandardFolders(tree, in: "App.xcappdata/AppData")
        try tree.write("App.xcappdata/AppDataInfo.plist", string: plist(["CFBundleIdentifier": "com.example.app"]))
        try makeStandardFolders(tree, in: "Bare")
        var times = [timespec(tv_sec: 1_748_772_000, tv_nsec: 0), timespec(tv_sec: 1_748_772_000, tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, tree.path("App.xcappdata/AppDataInfo.plist"), &times, 0) == 0)
        times = [timespec(tv_sec: 1_700_000_000, tv_nsec: 0), timespec(tv_sec: 1_700_000_000, tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, tree.path("Bare"), &times, 0) == 0)
        #expect(
            try ContainerSource.identify(path: tree.path("App.xcappdata")).exportedAt
                == ExportTime(seconds: 1_748_772_000, source: .metadataFile))
        #expect(
            try ContainerSource.identify(path: tree.path("Bare")).exportedAt
                == ExportTime(seconds: 1_700_000_000, source: .inputFolder))
    }

    @Test("XCDownloadDate comes first: the Mac's local time as Xcode writes it, a dot between minutes and seconds")
    func exportTimeFromTheDownloadDate() throws {
        let tree = try TemporaryTree()
        try makeStandardFolders(tree, in: "App.xcappdata/AppData")
        try tree.write(
            "App.xcappdata/AppDataInfo.plist",
            string: plist(["CFBundleIdentifier": "com.example.app", "XCDownloadDate": "2019-08-16 21:56.56.285"]))
        let time = try #require(try ContainerSource.identify(path: tree.path("App.xcappdata")).exportedAt)
        // 2019-08-16T21:56:56 read as if UTC: the zone is the Mac's, which the plist does not say.
        #expect(time == ExportTime(seconds: 1_565_992_616, milliseconds: 285, source: .downloadDate, isLocalTime: true))
        try tree.write(
            "App.xcappdata/AppDataInfo.plist",
            string: plist(["CFBundleIdentifier": "com.example.app", "XCDownloadDate": "yesterday"]))
        #expect(try ContainerSource.identify(path: tree.path("App.xcappdata")).exportedAt?.source == .metadataFile)
    }

    @Test func readsBothMetadataPlistsOfAnXcappdataMadeFromASimulator() throws {
        let tree = try TemporaryTree()
        try makeStandardFolders(tree, in: "App.xcappdata/AppData")
        try tree.write("App.xcappdata/AppDataInfo.plist", string: plist(["CFBundleIdentifier": "com.example.app"]))
        try tree.write("App.xcappdata/AppData/" + metadataFile, bytes: PropertyListFixtures.backupExclusion)
        let container = try ContainerSource.identify(path: tree.path("App.xcappdata"))
        #expect(container.metadata.map(\.path) == ["AppDataInfo.plist", "AppData/" + metadataFile])
        #expect(container.metadata.last?.value == .string("com.apple.backupd"))
    }

    @Test func acceptsAnXcappdataWithoutAppDataInfoAndSaysSo() throws {
        let tree = try TemporaryTree()
        try makeStandardFolders(tree, in: "App.xcappdata/AppData", ["Documents", "Library"])
        let container = try ContainerSource.identify(path: tree.path("App.xcappdata"))
        #expect(container.layout == .xcappdata)
        #expect(container.metadata.count == 1)
        #expect(container.metadata.first?.path == "AppDataInfo.plist")
        #expect(container.metadata.first?.value == nil)
        #expect(container.metadata.first?.problem?.hasPrefix("missing") == true)
    }

    @Test func reportsAMalformedAppDataInfoAndIdentifiesTheAppFromTheNextStep() throws {
        let tree = try TemporaryTree()
        try makeStandardFolders(tree, in: "App.xcappdata/AppData")
        try tree.write("App.xcappdata/AppDataInfo.plist", string: "bplist00garbage")
        try tree.write(
            "App.xcappdata/AppData/" + metadataFile, string: plist(["MCMMetadataIdentifier": "net.devsci.den"]))
        let container = try ContainerSource.identify(path: tree.path("App.xcappdata"))
        #expect(container.layout == .xcappdata)
        let info = try #require(container.metadata.first)
        #expect(info.path == "AppDataInfo.plist")
        #expect(info.value == nil)
        #expect(info.problem?.contains("binary plist: the file is 15 bytes") == true)
        #expect(container.bundleIdentifier == "net.devsci.den")
        #expect(container.bundleIdentifierSource == .containerMetadata)
    }

    @Test("the container-manager plist alone makes a data container, not a simulator one (devices have it too)")
    func recognisesADataContainerWithMetadata() throws {
        let tree = try TemporaryTree()
        try tree.mkdir("C0FFEE/Library/Preferences")
        try tree.write(
            "C0FFEE/" + metadataFile,
            string: plist(["MCMMetadataIdentifier": "com.example.sim", "MCMMetadataUUID": "C0FFEE"]))
        let input = tree.path("C0FFEE")
        let container = try ContainerSource.identify(path: input)
        #expect(container.layout == .dataContainer)
        #expect(container.rootPath == resolved(input))
        #expect(container.bundleIdentifier == "com.example.sim")
        #expect(container.bundleIdentifierSource == .containerMetadata)
        #expect(container.metadata.map(\.path) == [metadataFile])
        #expect(container.metadata.first?.value?["MCMMetadataUUID"] == .string("C0FFEE"))
    }

    @Test func recognisesASimulatorDataContainerByWhereItLies() throws {
        let tree = try TemporaryTree()
        let folder =
            "CoreSimulator/Devices/9A1B2C3D-0000-4000-8000-000000000001/data/Containers/Data/Application/C0FFEE"
        try tree.mkdir(folder + "/Documents")
        try tree.write(folder + "/" + metadataFile, string: plist(["MCMMetadataIdentifier": "com.example.sim"]))
        #expect(try ContainerSource.identify(path: tree.path(folder)).layout == .simulator)
    }

    @Test("a container in any device set (--device-set) is a simulator's when its device folder holds device.plist")
    func recognisesASimulatorDataContainerInAnotherDeviceSet() throws {
        let tree = try TemporaryTree()
        let folder = "sets/ci/9A1B2C3D-0000-4000-8000-000000000001/data/Containers/Data/Application/C0FFEE"
        try tree.mkdir(folder + "/Documents")
        try tree.write(folder + "/" + metadataFile, string: plist(["MCMMetadataIdentifier": "com.example.sim"]))
        #expect(
            try ContainerSource.identify(path: tree.path(folder)).layout == .dataContainer,
            "no device.plist: no evidence")
        try tree.write(
            "sets/ci/9A1B2C3D-0000-4000-8000-000000000001/device.plist",
            string: plist(["UDID": "9A1B2C3D-0000-4000-8000-000000000001"]))
        #expect(try ContainerSource.identify(path: tree.path(folder)).layout == .simulator)
    }

    @Test("a real container is often only Library/ with folders iOS makes")
    func recognisesALibraryOnlyContainer() throws {
        let tree = try TemporaryTree()
        try tree.mkdir("Only/Library/SplashBoard/Snapshots")
        #expect(try ContainerSource.identify(path: tree.path("Only")).layout == .bare)
        try tree.mkdir("Stray/Library")
        #expect(throws: ScanError.self) { try ContainerSource.identify(path: tree.path("Stray")) }
    }

    @Test func recognisesABareContainerWithTwoOfTheThreeFolders() throws {
        let tree = try TemporaryTree()
        try makeStandardFolders(tree, in: "", ["Library", "tmp"])
        let container = try ContainerSource.identify(path: tree.root)
        #expect(container.layout == .bare)
        #expect(container.rootPath == resolved(tree.root))
        #expect(container.metadata.isEmpty)
        #expect(container.bundleIdentifier == nil)
        #expect(container.bundleIdentifierSource == BundleIdentifierSource.none)
    }

    @Test func followsAnInputThatIsASymbolicLinkAndNormalisesThePath() throws {
        let tree = try TemporaryTree()
        try makeStandardFolders(tree, in: "real")
        try tree.symlink("link", to: "real")
        let linked = try ContainerSource.identify(path: tree.path("link"))
        #expect(linked.inputPath == tree.path("link"))
        #expect(linked.rootPath == resolved(tree.path("real")))
        let messy = try ContainerSource.identify(path: tree.path("real/./Documents/../"))
        #expect(messy.rootPath == resolved(tree.path("real")))
    }

    @Test func reportsASymbolicLinkedMetadataPlistWithoutFollowingIt() throws {
        let tree = try TemporaryTree()
        try makeStandardFolders(tree, in: "box")
        try tree.write("elsewhere.plist", string: plist(["MCMMetadataIdentifier": "com.attacker.redirect"]))
        try tree.symlink("box/" + metadataFile, to: "../elsewhere.plist")
        let container = try ContainerSource.identify(path: tree.path("box"))
        #expect(container.layout == .bare)
        #expect(container.bundleIdentifier == nil)
        #expect(container.metadata.first?.problem?.contains("symbolic link") == true)
    }
}

@Suite("Bundle identifier chain")
struct BundleIdentifierChainTests {
    @Test func theOptionOverridesEveryOtherSource() throws {
        let tree = try TemporaryTree()
        try makeStandardFolders(tree, in: "App.xcappdata/AppData")
        try tree.write("App.xcappdata/AppDataInfo.plist", string: plist(["CFBundleIdentifier": "com.example.app"]))
        let container = try ContainerSource.identify(
            path: tree.path("App.xcappdata"), bundleIdentifier: "org.chosen.by.user")
        #expect(container.bundleIdentifier == "org.chosen.by.user")
        #expect(container.bundleIdentifierSource == .option)
    }

    @Test func appDataInfoWinsOverContainerMetadata() throws {
        let tree = try TemporaryTree()
        try makeStandardFolders(tree, in: "App.xcappdata/AppData")
        try tree.write("App.xcappdata/AppDataInfo.plist", string: plist(["CFBundleIdentifier": "com.example.app"]))
        try tree.write(
            "App.xcappdata/AppData/" + metadataFile, string: plist(["MCMMetadataIdentifier": "com.example.other"]))
        let container = try ContainerSource.identify(path: tree.path("App.xcappdata"))
        #expect(container.bundleIdentifier == "com.example.app")
        #expect(container.bundleIdentifierSource == .appDataInfo)
    }

    @Test func readsTheBundleIdentifierKeyThirdPartyExportersWrite() throws {
        let tree = try TemporaryTree()
        try makeStandardFolders(tree, in: "App.xcappdata/AppData")
        try tree.write(
            "App.xcappdata/AppDataInfo.plist",
            string: plist(["BundleIdentifier": "com.example.exported", "Created": "today"]))
        let container = try ContainerSource.identify(path: tree.path("App.xcappdata"))
        #expect(container.bundleIdentifier == "com.example.exported")
        #expect(container.bundleIdentifierSource == .appDataInfo)
    }

    @Test func skipsAnIdentifierThatIsNoBundleIdentifier() throws {
        let tree = try TemporaryTree()
        try makeStandardFolders(tree, in: "App.xcappdata/AppData")
        try tree.write("App.xcappdata/AppDataInfo.plist", string: plist(["CFBundleIdentifier": "../../etc"]))
        try tree.write(
            "App.xcappdata/AppData/" + metadataFile, string: plist(["MCMMetadataIdentifier": "com.example.app"]))
        let container = try ContainerSource.identify(path: tree.path("App.xcappdata"))
        #expect(container.bundleIdentifier == "com.example.app")
        #expect(container.bundleIdentifierSource == .containerMetadata)
    }

    @Test func fallsBackToThePreferencesFileWithAMatchingCachesFolder() throws {
        let tree = try TemporaryTree()
        try makeStandardFolders(tree, in: "")
        for name in [".GlobalPreferences", "com.apple.PeoplePicker", "com.google.gmp.measurement", "net.devsci.den"] {
            try tree.write("Library/Preferences/\(name).plist", string: plist([:]))
        }
        try tree.mkdir("Library/Caches/net.devsci.den")
        let container = try ContainerSource.identify(path: tree.root)
        #expect(container.bundleIdentifier == "net.devsci.den")
        #expect(container.bundleIdentifierSource == .preferencesFile)
    }

    @Test("two preferences files and nothing else to tell them apart: ambiguous, both listed, no guess")
    func twoPreferencesFilesAreAmbiguous() throws {
        let tree = try TemporaryTree()
        try makeStandardFolders(tree, in: "")
        for name in ["org.zeta.app", "com.apple.UIKit", ".GlobalPreferences", "io.alpha.app"] {
            try tree.write("Library/Preferences/\(name).plist", string: plist([:]))
        }
        try tree.mkdir("Library/Preferences/com.aaa.folder.plist")
        try tree.symlink("Library/Preferences/com.aab.link.plist", to: "io.alpha.app.plist")
        let container = try ContainerSource.identify(path: tree.root)
        #expect(container.bundleIdentifier == nil)
        #expect(container.bundleIdentifierSource == .ambiguous)
        #expect(container.identityCandidates == ["io.alpha.app", "org.zeta.app"])
    }

    @Test("a Caches folder counts when it holds what iOS makes per process (here Metal's cache), not an SDK's")
    func fallsBackToTheCachesFolderSkippingSystemAndSDKFolders() throws {
        let tree = try TemporaryTree()
        try makeStandardFolders(tree, in: "")
        for name in [
            "com.apple.nsurlsessiond", "com.crashlytics.data", "com.hackemist.SDImageCache",
            "com.onevcat.Kingfisher.ImageCache.default", "fsCachedData", "Snapshots", "net.devsci.den",
        ] {
            try tree.mkdir("Library/Caches/" + name)
        }
        try tree.mkdir("Library/Caches/net.devsci.den/com.apple.metal")
        try tree.write("Library/Caches/com.aaa.file", string: "not a folder")
        let container = try ContainerSource.identify(path: tree.root)
        #expect(container.bundleIdentifier == "net.devsci.den")
        #expect(container.bundleIdentifierSource == .cachesFolder)
    }

    @Test func prefersTheCachesFolderHoldingTheURLCache() throws {
        let tree = try TemporaryTree()
        try makeStandardFolders(tree, in: "")
        try tree.mkdir("Library/Caches/com.aaa.sdk")
        try tree.write("Library/Caches/org.example.app/Cache.db", bytes: [])
        let container = try ContainerSource.identify(path: tree.root)
        #expect(container.bundleIdentifier == "org.example.app")
        #expect(container.bundleIdentifierSource == .cachesFolder)
    }
}

@Suite("Inputs that are not containers")
struct NotAContainerTests {
    @Test func refusesAMissingPath() throws {
        let tree = try TemporaryTree()
        let missing = tree.path("nowhere")
        #expect(throws: ScanError.missingPath(missing)) { try ContainerSource.identify(path: missing) }
    }

    @Test func refusesAFile() throws {
        let tree = try TemporaryTree()
        try tree.write("container.zip", bytes: [0x50, 0x4B, 0x03, 0x04])
        let file = tree.path("container.zip")
        let error = #expect(throws: ScanError.notADirectory(file)) { try ContainerSource.identify(path: file) }
        #expect(error?.description.contains("is a file, not a container folder") == true)
    }

    @Test func refusesAnEmptyFolder() throws {
        let tree = try TemporaryTree()
        let error = #expect(throws: ScanError.notAContainer(path: tree.root, found: [])) {
            try ContainerSource.identify(path: tree.root)
        }
        #expect(error?.description.hasSuffix("found an empty folder") == true)
    }

    @Test func refusesAFolderWithOnlyDocumentsAndSaysWhatWasExpected() throws {
        let tree = try TemporaryTree()
        try tree.mkdir("Documents")
        try tree.write("notes.txt", string: "hello")
        let error = #expect(throws: ScanError.notAContainer(path: tree.root, found: ["Documents/", "notes.txt"])) {
            try ContainerSource.identify(path: tree.root)
        }
        let message = error?.description ?? ""
        #expect(message.contains("at least two of Documents/, Library/, tmp/"))
        #expect(message.hasSuffix("found Documents/, notes.txt"))
    }

    @Test func aSymbolicLinkedDocumentsFolderDoesNotCount() throws {
        let tree = try TemporaryTree()
        try tree.mkdir("elsewhere/Documents")
        try tree.mkdir("box/Library")
        try tree.symlink("box/Documents", to: "../elsewhere/Documents")
        let box = tree.path("box")
        #expect(
            throws: ScanError.notAContainer(path: box, found: ["Documents (symbolic link, not followed)", "Library/"])
        ) {
            try ContainerSource.identify(path: box)
        }
    }

    @Test func anAppDataFolderWithoutContentOrValidInfoIsNoPackage() throws {
        let tree = try TemporaryTree()
        try tree.mkdir("App.xcappdata/AppData")
        try tree.write("App.xcappdata/AppDataInfo.plist", string: "not a plist")
        let input = tree.path("App.xcappdata")
        #expect(throws: ScanError.notAContainer(path: input, found: ["AppData/", "AppDataInfo.plist"])) {
            try ContainerSource.identify(path: input)
        }
    }

    @Test func refusesADanglingSymbolicLink() throws {
        let tree = try TemporaryTree()
        try tree.symlink("link", to: "gone")
        let link = tree.path("link")
        let error = #expect(throws: ScanError.self) { try ContainerSource.identify(path: link) }
        #expect(error?.description.contains("does not exist") == true)
    }
}
