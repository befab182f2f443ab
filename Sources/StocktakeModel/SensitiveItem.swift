/// Something sensitive found in a file's content: where it is and what kind it is, never the value.
/// Reports, terminals and logs show these fields only (plus a fingerprint of the finding, not of the value):
/// a short secret such as a PIN would be recovered from any hash of it by trying every value.
public struct SensitiveItem: Sendable, Equatable {
    public enum Store: String, Sendable, CaseIterable {
        case propertyList, textFile, cookies, urlCache, database, realm
    }

    public enum Kind: String, Sendable, CaseIterable {
        case password, pin, token, apiKey, privateKey, jwt, cloudAccessKey, authorizationHeader, sessionCookie

        /// How a message names it.
        public var noun: String {
            switch self {
            case .password: "a password"
            case .pin: "a PIN or passcode"
            case .token: "a token"
            case .apiKey: "an API key or client secret"
            case .privateKey: "a PEM private key"
            case .jwt: "a JSON Web Token"
            case .cloudAccessKey: "a cloud access key"
            case .authorizationHeader: "an Authorization header"
            case .sessionCookie: "a session or credential cookie"
            }
        }
    }

    public let entry: Int32
    public let store: Store
    /// Where in the file, in the file's own words: a key path, a line number, a cookie's domain and name, a
    /// table and column, a cached request's host. Never the value.
    public let place: String
    public let kind: Kind
    /// Characters of the value, so a reader can tell a PIN from a token without seeing either.
    public let length: Int
    /// A device backup (`--backup`) records the file with data protection class None: readable whenever the
    /// device is on, locked or not. False when unknown.
    public let unprotected: Bool
    /// How many times the file holds this kind at this place (a log line repeating one token, an array of
    /// records under one key): repeats are one item, counted, never one item each.
    public let count: Int

    public init(
        entry: Int32, store: Store, place: String, kind: Kind, length: Int, unprotected: Bool = false, count: Int = 1
    ) {
        self.entry = entry
        self.store = store
        self.place = place
        self.kind = kind
        self.length = length
        self.unprotected = unprotected
        self.count = count
    }

    /// The item with what the device backup says of the file's protection.
    public func with(unprotected: Bool) -> SensitiveItem {
        SensitiveItem(
            entry: entry, store: store, place: place, kind: kind, length: length, unprotected: unprotected, count: count
        )
    }
}

/// Something sensitive found in a companion container of the app (an App Group it shares with its extensions,
/// an extension's own data container), whose files are not the audited inventory's entries.
public struct CompanionSensitiveItem: Sendable {
    /// The companion's identifier (`group.com.example.shared`, an extension's bundle id) or, when its metadata does
    /// not say, its folder's name: reports show the file as `<container>/<path>`.
    public let container: String
    public let path: [UInt8]
    /// The file as the companion's walk saw it: its place, backup state and size.
    public let file: Entry
    /// The item; its `entry` indexes the companion's inventory, not the audited one.
    public let item: SensitiveItem

    public init(container: String, path: [UInt8], file: Entry, item: SensitiveItem) {
        self.container = container
        self.path = path
        self.file = file
        self.item = item
    }
}
