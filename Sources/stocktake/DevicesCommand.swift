import ArgumentParser
import Foundation
import StocktakeAudit

struct DevicesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "devices",
        abstract:
            "List the connected devices (name, UDID, model, OS version, pairing, Developer Mode), or one device's apps.",
        discussion: """
            Asks Xcode's devicectl (`xcrun devicectl list devices`, `device info apps`; Xcode 15 or later on a Mac), \
            through the xcrun found on PATH. Audit a development-signed app with \
            `stocktake audit --device DEVICE --app ID`.
            """)

    @Option(
        help: "List the apps on this device (its name, UDID or identifier), marking those whose data can be copied.")
    var apps: String?

    @Option(help: "text or json.")
    var format: AppsCommand.ListingFormat = .text

    func run() throws {
        do {
            let output = try Interruption.withDevicectl(scratch: "stocktake-devicectl", { $0 as any Error }) {
                control, scratch in
                guard let query = apps else {
                    let devices = try DeviceAudit.devices(control, scratch: scratch)
                    return format == .json ? try DeviceListing.json(devices) : Self.text(DeviceListing.lines(devices))
                }
                let device = try DeviceAudit.device(query, control, scratch: scratch)
                let installed = try DeviceAudit.apps(on: device, control, scratch: scratch)
                return format == .json
                    ? try DeviceListing.json(installed, on: device)
                    : Self.text(DeviceListing.lines(installed, on: device))
            }
            FileHandle.standardOutput.write(output)
        } catch let error as DeviceError { throw CommandFailure(.couldNotRun, lines: error.lines) }
    }

    /// Names come from the device: each line is made visible (no terminal control, no line of its own).
    static func text(_ lines: [String]) -> Data { Data(lines.map { Terminal.visible($0) + "\n" }.joined().utf8) }
}
