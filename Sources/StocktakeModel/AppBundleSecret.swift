/// A secret shipped in the app bundle's Info.plist (`--app-bundle`): a key whose name says secret with a value that
/// fits it, or a value with a secret's shape. Every copy of the app carries it. Never the value: the key path, the
/// kind and the length.
public struct AppBundleSecret: Sendable, Equatable {
    /// The bundle as reports name it (`Example.app`).
    public let bundle: String
    /// Where in Info.plist: `key StripeSecretKey`.
    public let place: String
    public let kind: SensitiveItem.Kind
    public let length: Int

    public init(bundle: String, place: String, kind: SensitiveItem.Kind, length: Int) {
        (self.bundle, self.place, self.kind, self.length) = (bundle, place, kind, length)
    }
}
