import StocktakeModel
import StocktakeScan
import TestSupport
import Testing

/// Identity from the evidence real containers hold (shapes taken from the real layouts of the real-world corpus).
@Suite("Bundle identity from evidence")
struct BundleIdentityTests {
    private func identify(_ build: (TemporaryTree) throws -> Void) throws -> ContainerDescription {
        let tree = try TemporaryTree()
        try tree.mkdir("Library/Preferences")
        try build(tree)
        return try ContainerSource.identify(path: tree.root)
    }

    @Test("Chrome: the launch snapshot names the app; Firebase's preferences plist beside it never wins")
    func snapshotBeatsAnSDKPreferencesFile() throws {
        let container = try identify { tree in
            try tree.mkdir("Library/SplashBoard/Snapshots/sceneID:com.google.chrome.ios-default")
            try tree.write("Library/Preferences/com.firebase.FIRInstallations.plist", string: "")
            try tree.write("Library/Preferences/com.google.chrome.ios.plist", string: "")
        }
        #expect(container.bundleIdentifier == "com.google.chrome.ios")
        #expect(container.bundleIdentifierSource == .launchSnapshot)
        #expect(container.identityClues.map(\.source) == [.launchSnapshot, .preferencesFile])
    }

    @Test("a known SDK's preferences plist alone names no app")
    func anSDKPlistNeverWinsAlone() throws {
        let container = try identify { tree in
            try tree.write("Library/Preferences/app.aifactory.splendidSDK.plist", string: "")
            try tree.write("Library/Preferences/com.applovin.sdk.shared.plist", string: "")
            try tree.write("Library/Preferences/group.com.example.shared.plist", string: "")
        }
        #expect(container.bundleIdentifier == nil)
        #expect(container.bundleIdentifierSource == BundleIdentifierSource.none)
    }

    @Test("every snapshot folder form iOS writes, including hyphenated ids, UUID scenes and ids without a dot")
    func snapshotFolderForms() throws {
        for (folder, expected) in [
            ("SplashBoard/Snapshots/imgurmobile - {DEFAULT GROUP}", "imgurmobile"),
            (
                "SplashBoard/Snapshots/sceneID_com.loki-project.loki-messenger-default",
                "com.loki-project.loki-messenger"
            ),
            (
                "SplashBoard/Snapshots/sceneID:com.apple.MobileSMS-93CE5512-0664-44A4-94E6-26CE43D2CC19",
                "com.apple.MobileSMS"
            ),
            ("Caches/Snapshots/com.example.old", "com.example.old"),
        ] {
            let container = try identify { try $0.mkdir("Library/" + folder) }
            #expect(container.bundleIdentifier == expected, "\(folder)")
            #expect(container.bundleIdentifierSource == .launchSnapshot)
        }
    }

    @Test("a preferences plist that another clue confirms wins over a lone one")
    func aConfirmedPreferencesFileWins() throws {
        let container = try identify { tree in
            try tree.write("Library/Preferences/com.duckduckgo.blocker-list.etags.plist", string: "")
            try tree.write("Library/Preferences/com.duckduckgo.mobile.ios.plist", string: "")
            try tree.mkdir("Library/HTTPStorages/com.duckduckgo.mobile.ios")
        }
        #expect(container.bundleIdentifier == "com.duckduckgo.mobile.ios")
        #expect(container.bundleIdentifierSource == .httpStorage)
    }

    @Test("two saved states and nothing stronger: ambiguous, both candidates listed")
    func conflictingCluesAreAmbiguous() throws {
        let container = try identify { tree in
            try tree.mkdir("Library/Saved Application State/com.apple.mobilesafari.savedState")
            try tree.mkdir("Library/Saved Application State/com.apple.SafariViewService.savedState")
        }
        #expect(container.bundleIdentifier == nil)
        #expect(container.bundleIdentifierSource == .ambiguous)
        #expect(Set(container.identityCandidates) == ["com.apple.mobilesafari", "com.apple.SafariViewService"])
    }

    @Test("the metadata plist is authoritative; a snapshot naming another app is kept as a disagreeing clue")
    func authorityWinsAndDisagreementIsKept() throws {
        let container = try identify { tree in
            try tree.write(
                ".com.apple.mobile_container_manager.metadata.plist",
                string: """
                    <?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><dict><key>MCMMetadataIdentifier</key>\
                    <string>com.example.real</string></dict></plist>
                    """)
            try tree.mkdir("Library/SplashBoard/Snapshots/com.example.other - {DEFAULT GROUP}")
        }
        #expect(container.bundleIdentifier == "com.example.real")
        #expect(container.bundleIdentifierSource == .containerMetadata)
        #expect(container.identityClues.map(\.identifier) == ["com.example.real", "com.example.other"])
    }

    @Test("suites an app names after itself are no candidates; a framework's ScriptingLocalStorage names no app")
    func suffixedAndFrameworkDomains() throws {
        let weather = try identify { tree in
            for name in [
                "com.apple.weather", "com.apple.weather.internal", "com.apple.weather.sensitive",
                "com.apple.EmojiCache",
            ] {
                try tree.write("Library/Preferences/\(name).plist", string: "")
            }
        }
        #expect(weather.bundleIdentifier == "com.apple.weather")
        let music = try identify {
            try $0.write("Library/Preferences/com.apple.Music.ScriptingLocalStorage.plist", string: "")
        }
        #expect(music.bundleIdentifier == nil)
    }

    @Test("a snapshots folder reached through a symbolic link is not read")
    func linksAreNotFollowed() throws {
        let container = try identify { tree in
            try tree.mkdir("elsewhere/Snapshots/com.attacker.app - {DEFAULT GROUP}")
            try tree.symlink("Library/SplashBoard", to: "../elsewhere")
        }
        #expect(container.bundleIdentifier == nil)
    }
}
