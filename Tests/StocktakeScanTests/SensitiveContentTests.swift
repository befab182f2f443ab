import Foundation
import StocktakeModel
import StocktakePropertyLists
import TestSupport
import Testing

@testable import StocktakeContent
@testable import StocktakeScan

/// The content checks' readers: what counts as a secret, by name and by shape, and the look-alikes that do not.
@Suite struct SensitiveContentTests {
    static let jwt =
        "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4ifQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"

    @Test(arguments: [
        ("password", SensitiveItem.Kind.password), ("userPassword", .password), ("user_pwd", .password), ("PIN", .pin),
        ("userPIN", .pin), ("passcode", .pin), ("accessToken", .token), ("refresh_token", .token),
        ("sessionId", .token),
        ("api_key", .apiKey), ("clientSecret", .apiKey), ("privateKey", .privateKey),
        ("Authorization", .authorizationHeader),
        ("ZPASSWORD", .password), ("adminPassword", .password), ("hashedPassword", .password),
    ])
    func namesThatHoldSecrets(_ name: String, _ kind: SensitiveItem.Kind) {
        #expect(SecretNames.kind(ofName: name) == kind)
    }

    @Test(arguments: [
        "passwordRulesShown", "tokenCount", "tokenExpiresAt", "lastPasswordChange", "isPasswordSaved", "deviceToken",
        "apnsToken", "fcmToken", "pushToken", "username", "email", "tokenType", "passwordPolicy", "pinLength",
        "publicKey",
        "firebasePublicApiKey", "showPassword",
    ])
    func namesThatOnlyMentionSecrets(_ name: String) {
        #expect(SecretNames.kind(ofName: name) == nil, "\(name)")
    }

    @Test func valuesMustFitTheirName() {
        #expect(SecretNames.secretLength("4821", as: .pin) == 4)
        #expect(SecretNames.secretLength("true", as: .password) == nil)
        #expect(SecretNames.secretLength("12", as: .pin) == nil)
        #expect(SecretNames.secretLength("hunter2!", as: .password) == 8)
        #expect(SecretNames.secretLength("6F9619FF-8B86-D011-B42D-00CF4FC964FF", as: .token) == nil, "a UUID")
        #expect(
            SecretNames.secretLength("AIzaSyD-EXAMPLEEXAMPLEEXAMPLEabcdef12", as: .apiKey) == nil, "a public Google key"
        )
        #expect(SecretNames.secretLength(String(repeating: "ab", count: 8), as: .token) == nil, "short hex")
        #expect(SecretNames.secretLength("Xk9fQ2LmZp7RtV4wYs1N", as: .token) == 20)
    }

    @Test func shapesAnywhere() {
        #expect(SecretShapes.find(in: Substring("token=\(Self.jwt)")).map(\.kind) == [.jwt])
        #expect(SecretShapes.find(in: "key AKIAIOSFODNN7EXAMPLE here").map(\.kind) == [.cloudAccessKey])
        #expect(
            SecretShapes.find(in: "-----BEGIN RSA PRIVATE KEY-----\nMIIEow\n-----END RSA PRIVATE KEY-----").map(\.kind)
                == [.privateKey])
        #expect(SecretShapes.find(in: "-----BEGIN PUBLIC KEY-----\nMIIB\n-----END PUBLIC KEY-----").isEmpty)
        #expect(
            SecretShapes.find(in: "eyJub3QiOiJhIGp3dCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.abc").isEmpty, "no alg: not a JWT")
        #expect(SecretShapes.find(in: "AKIAIOSFODNN7EXAMPL").isEmpty, "19 characters")
    }

    @Test func propertyListsByNameShapeAndArchive() throws {
        let plain = PropertyListValue.dictionary([
            "account": .dictionary(["password": .string("S3cret!pass"), "passwordRulesShown": .bool(true)]),
            "tokenCount": .integer(3), "note": .string(Self.jwt), "pin": .integer(1234),
        ])
        let hits = PropertyListSecrets.find(in: plain)
        #expect(hits.map(\.place) == ["key account.password", "key note"])
        #expect(hits.map(\.kind) == [.password, .jwt])
        // An NSKeyedArchiver dictionary whose keys and values are UIDs, one value shared and a cycle back to the root.
        let archive = PropertyListValue.dictionary([
            "$archiver": .string("NSKeyedArchiver"), "$top": .dictionary(["root": .uid(1)]),
            "$objects": .array([
                .string("$null"),
                .dictionary([
                    "NS.keys": .array([.uid(2), .uid(3), .uid(5)]), "NS.objects": .array([.uid(4), .uid(4), .uid(1)]),
                ]),
                .string("refreshToken"), .string("refresh_token"), .string("Xk9fQ2LmZp7RtV4wYs1NqW"), .string("self"),
            ]),
        ])
        let archived = PropertyListSecrets.find(in: archive)
        #expect(archived == [PropertyListSecrets.Hit(place: "key refreshToken", kind: .token, length: 22)])
        // UserDefaults keeps archived objects as data holding a binary plist.
        let nested = try binaryPlist(["secret": "Xk9fQ2LmZp7RtV4wYs1NqW"])
        #expect(
            PropertyListSecrets.find(in: .dictionary(["session": .data(nested)])).map(\.place) == ["key session.secret"]
        )
    }

    @Test func textFilesLineByLine() {
        let log = """
            2024-01-01 GET /api/feed 200
            Authorization: Bearer abcdefghijklmnopqrstuvwxyz012345
            {"user": "alice", "password": "hunter2!", "passwordRulesShown": true}
            export AWS_SECRET=AKIAIOSFODNN7EXAMPLE
            tokenCount=3 deviceToken=\(String(repeating: "a1", count: 32))
            """
        let hits = TextSecrets.find(in: Array(log.utf8))
        #expect(hits.map(\.place) == ["line 2", "line 3", "line 4"])
        #expect(hits.map(\.kind) == [.authorizationHeader, .password, .cloudAccessKey])
        #expect(hits[1].length == 8)
    }

    @Test func databasesAndRealmFiles() throws {
        let tree = try TemporaryTree("sensitive-stores")
        let script = """
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            db.execute("CREATE TABLE ZUSER (Z_PK INTEGER PRIMARY KEY, ZNAME TEXT, ZPASSWORD TEXT, ZPASSWORDHINT TEXT, ZTOKENCOUNT INTEGER)")
            db.execute("INSERT INTO ZUSER VALUES (1, 'alice', 'hunter2hunter2', 'pet', 3)")
            db.execute("CREATE TABLE settings (key TEXT, pin TEXT)")
            db.execute("INSERT INTO settings VALUES ('a', '')")
            db.execute("CREATE VIEW v AS SELECT ZPASSWORD AS password FROM ZUSER")
            db.commit()
            """
        let result = try StocktakeProcess.runCommand(["python3", "-c", script, tree.path("Model.sqlite")])
        try #require(result.status == 0, "\(result.stderr)")
        let before = TreeSnapshot(tree.path(""))
        let hits = DatabaseSecrets.find(database: tree.path("Model.sqlite"))
        #expect(hits == [PropertyListSecrets.Hit(place: "column ZUSER.ZPASSWORD", kind: .password, length: 14)])
        #expect(TreeSnapshot(tree.path("")) == before, "the store is only read")

        let realm =
            [UInt8](repeating: 0, count: 16) + Array("T-DB".utf8) + [UInt8](repeating: 0, count: 40)
            + Array("class_User\0username\0password\0".utf8)
        #expect(RealmSecrets.find(realm).map(\.place) == ["property password"])
        var encrypted = realm
        encrypted.replaceSubrange(16..<20, with: [0x9A, 0x11, 0x42, 0x07])
        #expect(RealmSecrets.find(encrypted).isEmpty)
    }

    /// WebKit's local storage: UTF-16 blobs as WebKit writes them, text as older builds did, a JSON value holding a
    /// token under a neutral key; look-alike keys and values are passed over.
    @Test func webViewLocalStorage() throws {
        let tree = try TemporaryTree("sensitive-webstorage")
        let script = """
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            db.execute("CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB NOT NULL ON CONFLICT FAIL)")
            rows = [("auth_token", "Wm8pLq2RtY6uVn3sXk7aBd5c".encode("utf-16-le")), ("password", "correct-horse"),
                    ("state", '{"user": "a", "access_token": "Zq1Xw2Ce3Vr4Bt5Ny6Mu"}'.encode("utf-16-le")),
                    ("tokenCount", "3".encode("utf-16-le")), ("theme", "dark".encode("utf-16-le")),
                    ("deviceToken", ("ab" * 32).encode("utf-16-le")), ("odd", bytes([65]))]
            db.executemany("INSERT INTO ItemTable VALUES (?, ?)", rows)
            db.commit()
            """
        let result = try StocktakeProcess.runCommand([
            "python3", "-c", script, tree.path("https_example.com_0.localstorage"),
        ])
        try #require(result.status == 0, "\(result.stderr)")
        let hits = DatabaseSecrets.find(database: tree.path("https_example.com_0.localstorage"))
        #expect(
            hits == [
                PropertyListSecrets.Hit(place: "local storage key auth_token", kind: .token, length: 24),
                PropertyListSecrets.Hit(place: "local storage key password", kind: .password, length: 13),
                PropertyListSecrets.Hit(place: "local storage key state", kind: .token, length: 20),
            ])
        #expect(ContentInspector.isWebLocalStorage(ArraySlice("https_example.com_0.localstorage".utf8)))
        #expect(ContentInspector.isWebLocalStorage(ArraySlice("LocalStorage.sqlite3".utf8)))
        #expect(!ContentInspector.isWebLocalStorage(ArraySlice("Model.sqlite".utf8)))
    }

    private func binaryPlist(_ value: [String: String]) throws -> [UInt8] {
        let data = try PropertyListSerialization.data(fromPropertyList: value, format: .binary, options: 0)
        return [UInt8](data)
    }
}

extension DatabaseSecrets {
    /// The hits of a store read in place.
    static func find(database path: String) -> [PropertyListSecrets.Hit] {
        find(database: path, meter: ContentMeter()).hits
    }
}
