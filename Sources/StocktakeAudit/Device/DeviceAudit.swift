import Foundation
import StocktakeFiles
import StocktakeModel
import StocktakeScan

/// An app on a connected device (`audit --device DEVICE --app ID [--app-group GROUP]`): devicectl copies its
/// containers into a private folder, audited as that app's and removed by its owner however the audit ends.
package struct DeviceTarget: Sendable {
    package let device: String
    package let bundleIdentifier: String
    /// App Group ids (`group.…`) to copy beside the data container.
    package let appGroups: [String]

    package init(device: String, bundleIdentifier: String, appGroups: [String] = []) {
        self.device = device
        self.bundleIdentifier = bundleIdentifier
        self.appGroups = appGroups
    }
}

package enum DeviceAudit {
    package static func devices(_ control: DeviceControl, scratch: PrivateFolder) throws(DeviceError)
        -> [ConnectedDevice]
    {
        let command = "xcrun devicectl list devices"
        let list = try control.run(["list", "devices"], decoding: DevicectlOutput.Listing.self, scratch: scratch)
        guard let list else { throw .malformedOutput(command: command, missing: "result is missing") }
        guard let devices = list.devices else {
            throw .malformedOutput(command: command, missing: "result.devices is missing")
        }
        return try devices.enumerated().map { (index, device) throws(DeviceError) in
            guard let connected = ConnectedDevice(device) else {
                throw .malformedOutput(command: command, missing: "result.devices[\(index)].identifier is missing")
            }
            return connected
        }
    }

    package static func device(_ query: String, _ control: DeviceControl, scratch: PrivateFolder)
        throws(DeviceError) -> ConnectedDevice
    {
        let all = try devices(control, scratch: scratch)
        let matches = all.filter { $0.isNamed(query) }
        guard let device = matches.first else { throw .noDevice(query: query, devices: all) }
        guard matches.count == 1 else { throw .ambiguousDevice(query: query, candidates: matches) }
        return device
    }

    /// By bundle id. devicectl refuses a device that is locked or not paired.
    package static func apps(on device: ConnectedDevice, _ control: DeviceControl, scratch: PrivateFolder)
        throws(DeviceError) -> [InstalledApp]
    {
        try ready(device)
        let arguments = ["device", "info", "apps", "--device", device.identifier]
        guard let list = try control.run(arguments, decoding: DevicectlOutput.Listing.self, scratch: scratch),
            let apps = list.apps
        else {
            throw .malformedOutput(
                command: "xcrun devicectl " + arguments.joined(separator: " "), missing: "result.apps is missing")
        }
        return apps.compactMap(InstalledApp.init).sorted { $0.bundleIdentifier < $1.bundleIdentifier }
    }

    /// Refuses a device devicectl says is not paired or has Developer Mode off, before asking it anything.
    static func ready(_ device: ConnectedDevice) throws(DeviceError) {
        if let pairing = device.pairingState, pairing != "paired" { throw .notPaired(device) }
        if device.developerMode == "disabled" { throw .developerModeOff(device) }
    }

    /// The caller owns `scratch` and removes it.
    package static func run(
        _ request: AuditRequest, target: DeviceTarget, control: DeviceControl, scratch: PrivateFolder
    ) throws(AuditError) -> AuditResult {
        var resolved = request
        do throws(DeviceError) {
            let device = try device(target.device, control, scratch: scratch)
            let installed = try apps(on: device, control, scratch: scratch)
            guard let app = installed.first(where: { $0.bundleIdentifier == target.bundleIdentifier }) else {
                throw .appNotInstalled(
                    app: target.bundleIdentifier, device: device,
                    copyable: installed.filter(\.builtByDeveloper).map(\.bundleIdentifier))
            }
            guard app.builtByDeveloper else { throw .notDevelopmentSigned(app: app.bundleIdentifier, device: device) }
            let data = Paths.join(scratch.path, target.bundleIdentifier)
            let copiedWith = try copy(
                "appDataContainer", target.bundleIdentifier, from: device, into: data, control, scratch: scratch)
            resolved.inputPath = data
            resolved.bundleIdentifier = target.bundleIdentifier
            resolved.deviceCopy = DeviceCopyDescription(
                name: device.name, identifier: device.identifier, udid: device.udid, model: device.model,
                osVersion: device.osVersion, copiedWith: copiedWith)
            resolved.appGroupPaths = []
            for group in target.appGroups {
                let path = Paths.join(scratch.path, "groups", group)
                _ = try copy("appGroupDataContainer", group, from: device, into: path, control, scratch: scratch)
                resolved.appGroupPaths.append(path)
                resolved.companionIdentifiers[path] = group
            }
        } catch {
            throw .device(error)
        }
        return try Audit.run(resolved)
    }

    /// Copies one container's tree, returning the command the report shows; a partial copy is never audited.
    private static func copy(
        _ domain: String, _ identifier: String, from device: ConnectedDevice, into folder: String,
        _ control: DeviceControl, scratch: PrivateFolder
    ) throws(DeviceError) -> String {
        do {
            try FileManager.default.createDirectory(
                atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw .scratch("cannot create \(folder): \(error.localizedDescription)")
        }
        let command = [
            "device", "copy", "from", "--device", device.identifier, "--domain-type", domain, "--domain-identifier",
            identifier, "--source", "/",
        ]
        do {
            let arguments = command + ["--destination", folder]
            _ = try control.run(
                arguments, decoding: DevicectlOutput.Ignored.self, timeout: control.copyTimeout, scratch: scratch)
        } catch {
            let message: String
            switch error {
            case .devicectl(_, let text), .couldNotRun(_, let text): message = text
            default: message = error.description
            }
            throw .copyFailed(app: identifier, device: device, message: message)
        }
        return "xcrun devicectl " + command.joined(separator: " ")
    }
}
