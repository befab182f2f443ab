import Foundation

/// What `devicectl … --json-output FILE` writes (Xcode 15 and later), read defensively: every field is optional.
enum DevicectlOutput {
    /// `{"info": {"outcome": …}, "result": …}` or, on failure, `{"error": {"code", "domain", "userInfo": …}}`.
    struct Envelope<Result: Decodable>: Decodable {
        let result: Result?
        let error: Failure?
    }

    struct Failure: Decodable {
        let code: Int?
        let domain: String?
        let userInfo: UserInfo?

        struct UserInfo: Decodable {
            let description, reason, suggestion: Text?

            enum CodingKeys: String, CodingKey {
                case description = "NSLocalizedDescription"
                case reason = "NSLocalizedFailureReason"
                case suggestion = "NSLocalizedRecoverySuggestion"
            }
        }

        /// devicectl writes these either as a plain string or as `{"string": …}`.
        struct Text: Decodable {
            let value: String?

            init(from decoder: any Decoder) throws {
                value =
                    (try? decoder.singleValueContainer().decode(String.self))
                    ?? (try? decoder.container(keyedBy: Key.self).decode(String.self, forKey: .string))
            }

            enum Key: String, CodingKey { case string }
        }

        var message: String {
            let parts = [userInfo?.description?.value, userInfo?.reason?.value, userInfo?.suggestion?.value]
                .compactMap { $0?.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
            if !parts.isEmpty { return parts.joined(separator: " ") }
            return "\(domain ?? "devicectl") error \(code.map(String.init) ?? "without a code")"
        }
    }

    /// A listing's result: `list devices` gives `devices`, `device info apps` gives `apps`.
    struct Listing: Decodable {
        let devices: [Device]?
        let apps: [App]?
    }

    struct Device: Decodable {
        let identifier: String?
        let deviceProperties: DeviceProperties?
        let hardwareProperties: HardwareProperties?
        let connectionProperties: ConnectionProperties?
    }

    struct DeviceProperties: Decodable {
        let name, osVersionNumber, developerModeStatus: String?
    }

    struct HardwareProperties: Decodable {
        let udid, marketingName, productType, platform: String?
    }

    struct ConnectionProperties: Decodable {
        let pairingState, tunnelState, transportType: String?
    }

    struct App: Decodable {
        let bundleIdentifier, name, version, bundleVersion: String?
        let builtByDeveloper, hidden: Bool?
    }

    /// A copy's result is not read: the exit status and the error say whether it worked.
    struct Ignored: Decodable {}
}
