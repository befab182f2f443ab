import StocktakeModel
import Testing

@testable import StocktakePolicy

@Suite struct DocumentsHiddenDataRuleTests {
    private func findings(exposed: Bool?, _ build: (inout InventoryBuilder) -> Void) -> [Finding] {
        var builder = InventoryBuilder()
        build(&builder)
        let context = PolicyContext(inventory: builder.build(), documentsExposed: exposed)
        return Policy(rules: [DocumentsHiddenDataRule()]).evaluate(context)
    }

    @Test func exposedDocumentsMakeEveryFindingAnErrorAndSaySoInTheMessage() {
        let found = findings(exposed: true) { $0.add("Documents/chat-index.sqlite", apparentBytes: 8192) }
        #expect(found.map(\.path) == ["Documents/chat-index.sqlite"])
        #expect(found.first?.severity == .error)
        #expect(found.first?.message.contains("shows to the user") == true)
    }

    @Test func hiddenOrUnknownVisibilityKeepsTheWarning() {
        for exposed in [false, nil] as [Bool?] {
            let found = findings(exposed: exposed) { $0.add("Documents/debug.log", apparentBytes: 100) }
            #expect(found.map(\.severity) == [.warning])
        }
    }

    @Test func eachKindOfInternalFileIsNamed() {
        let found = findings(exposed: false) { builder in
            builder.add("Documents/chat-index.sqlite-shm", apparentBytes: 32768)
            builder.add("Documents/contacts.db-journal", apparentBytes: 512)
            builder.add("Documents/default.realm", apparentBytes: 4096, kind: .realm)
            builder.add("Documents/default.realm.lock", apparentBytes: 0)
            builder.add("Documents/state.plist", apparentBytes: 300)
            builder.add("Documents/app.log.1", apparentBytes: 300)
            builder.add("Documents/db.lck", apparentBytes: 0)
            builder.add("Documents/.DS_Store", apparentBytes: 6148)
            builder.add("Documents/blob", apparentBytes: 4096, kind: .sqlite)
        }
        let byPath = Dictionary(uniqueKeysWithValues: found.map { ($0.path, $0.message) })
        #expect(byPath.count == 9)
        #expect(byPath["Documents/chat-index.sqlite-shm"]?.hasPrefix("Database file") == true)
        #expect(byPath["Documents/contacts.db-journal"]?.hasPrefix("Database file") == true)
        #expect(byPath["Documents/default.realm"]?.hasPrefix("Database file") == true)
        #expect(byPath["Documents/default.realm.lock"]?.hasPrefix("Lock file") == true)
        #expect(byPath["Documents/state.plist"]?.hasPrefix("Property list") == true)
        #expect(byPath["Documents/app.log.1"]?.hasPrefix("Log file") == true)
        #expect(byPath["Documents/db.lck"]?.hasPrefix("Lock file") == true)
        #expect(byPath["Documents/.DS_Store"]?.hasPrefix("Hidden file") == true)
        #expect(byPath["Documents/blob"]?.hasPrefix("Database file") == true)
    }

    @Test func aWholeFolderIsOneFindingWithItsBytes() {
        let found = findings(exposed: false) { builder in
            builder.add("Documents/com.crashlytics/v5/a.clsrecord", apparentBytes: 5000)
            builder.add("Documents/com.crashlytics/v5/b.clsrecord", apparentBytes: 3000)
            builder.add("Documents/com.crashlytics/settings.plist", apparentBytes: 100)
        }
        #expect(found.map(\.path) == ["Documents/com.crashlytics"])
        // The files round up to 8 KiB, 4 KiB and 4 KiB; the two folders (com.crashlytics, v5) add a block each.
        let expected: Int64 = 8192 + 4096 + 4096 + 2 * 4096
        #expect(found.first?.bytes == expected)
        #expect(found.first?.message.contains("3 files") == true)
    }

    @Test func onlyTheTopLevelInboxIsLeftAlone() {
        let found = findings(exposed: false) { builder in
            builder.add("Documents/Inbox/state.plist", apparentBytes: 100)
            builder.add("Documents/Projects/Inbox/state.plist", apparentBytes: 100)
        }
        #expect(found.map(\.path) == ["Documents/Projects/Inbox/state.plist"])
    }

    @Test func ordinaryNamesAreNotMistakenForInternals() {
        let found = findings(exposed: true) { builder in
            builder.add("Documents/Catalog.pdf", apparentBytes: 100)
            builder.add("Documents/my-journal.txt", apparentBytes: 100)
            builder.add("Documents/Cachet Photos/img.jpg", apparentBytes: 100)
            builder.add("Documents/com notes/a.txt", apparentBytes: 100)
            builder.add("Documents/Design.sketchdoc", apparentBytes: 100, kind: .keyedArchive)
            builder.add("Documents/Logo.png", apparentBytes: 100)
        }
        #expect(found.isEmpty, "\(found.map(\.path))")
    }

    @Test func classifiesFolderNames() {
        #expect(HiddenDocumentData.classifyFolder(".Trash") == .hiddenFolder)
        #expect(HiddenDocumentData.classifyFolder("Crashlytics") == .sdkFolder)
        #expect(HiddenDocumentData.classifyFolder("io.sentry") == .sdkFolder)
        #expect(HiddenDocumentData.classifyFolder("ImageCache") == .cacheFolder)
        #expect(HiddenDocumentData.classifyFolder("thumbnail_cache") == .cacheFolder)
        #expect(HiddenDocumentData.classifyFolder("fsCachedData") == .cacheFolder)
        #expect(HiddenDocumentData.classifyFolder("default.realm.management") == .databaseFolder)
        #expect(HiddenDocumentData.classifyFolder("Received Files") == nil)
        #expect(HiddenDocumentData.classifyFolder("com") == nil)
    }
}
