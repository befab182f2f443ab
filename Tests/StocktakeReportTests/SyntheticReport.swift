import Foundation
import StocktakeModel
import StocktakeRendering
import StocktakeReport
import TestSupport

/// The synthetic container wrapped in a report with a fixed tool version and time.
enum SyntheticReport {
    static func make(inventory: Inventory = SyntheticContainer.inventory()) -> Report {
        Report(
            tool: ToolInfo(version: "0.1.0-test"),
            generatedAt: Date(timeIntervalSince1970: SyntheticContainer.generatedAtSecondsSince1970),
            container: SyntheticContainer.description(), inventory: inventory,
            appBundle: AppBundleInfo(
                path: "/builds/Demo.app", bundleIdentifier: SyntheticContainer.bundleIdentifier,
                size: SizeTotal(files: 120, apparentBytes: 48_000_000, allocatedBytes: 48_300_000),
                infoPlist: .dictionary([
                    "CFBundleIdentifier": .string(SyntheticContainer.bundleIdentifier),
                    "UIFileSharingEnabled": .bool(true),
                ]),
                fileSharingEnabled: true, opensDocumentsInPlace: false),
            appGroups: [
                AppGroupInfo(
                    path: "/exports/group.com.example.shared", identifier: "group.com.example.shared",
                    size: SizeTotal(files: 3, apparentBytes: 20_000, allocatedBytes: 24_576))
            ])
    }

    static func html() -> String { HTMLReportWriter().render(make()) }
}
