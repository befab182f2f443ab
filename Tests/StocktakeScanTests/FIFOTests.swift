import Foundation
import StocktakeModel
import StocktakeScan
import TestSupport
import Testing

/// A walk that opened a FIFO for reading would hang on a real export (or consume another process's data).
/// Here each FIFO has a writer blocked in `open(O_WRONLY)`: that call returns only when someone opens the
/// FIFO for reading, blocking or not, so a writer that got through proves the walk opened it.
@Suite struct FIFOTests {
    /// One writer thread: records that it started and whether its `open` ever returned.
    final class Writer: @unchecked Sendable {
        let path: String
        private let lock = NSLock()
        private var started = false
        private var opened = false
        private let finished = DispatchSemaphore(value: 0)

        init(path: String) { self.path = path }

        var hasStarted: Bool { lock.withLock { started } }
        var hasOpened: Bool { lock.withLock { opened } }

        func start() {
            let thread = Thread { [self] in
                lock.withLock { started = true }
                let fd = open(path, O_WRONLY | O_CLOEXEC)
                lock.withLock { opened = true }
                // Close at once: a reader that opened the FIFO then sees end-of-file instead of hanging.
                if fd >= 0 { close(fd) }
                finished.signal()
            }
            thread.start()
        }

        /// Opens the FIFO for reading without blocking, which lets the writer's `open` return, then waits for it.
        func release() -> Bool {
            let reader = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
            defer { if reader >= 0 { close(reader) } }
            // A hang guard, not a timing assertion: a writer never released would hang the test run.
            return finished.wait(timeout: .now() + 30) == .success
        }
    }

    @Test func theWalkNeverOpensAFIFO() throws {
        let tree = try TemporaryTree("fifo-writers")
        // Names that would make the walk read them if they were files: a sniffable name, a plist, a
        // sidecar-like `._` name, something in Caches, and the container-manager metadata plist.
        let names = [
            "Documents/pipe", "Documents/data.plist", "Documents/._pipe", "Library/Caches/x",
            "Documents/Inbox/._data.plist", ".com.apple.mobile_container_manager.metadata.plist",
        ]
        try tree.write("Documents/data.txt", string: "a real file next to them")
        for name in names { try tree.mkfifo(name) }
        let writers = names.map { Writer(path: tree.path($0)) }
        for writer in writers { writer.start() }
        // Let every writer get into its blocking `open` before the walk starts.
        while !writers.allSatisfy(\.hasStarted) { usleep(1_000) }
        usleep(200_000)
        try #require(
            writers.allSatisfy { !$0.hasOpened }, "a writer got through before the walk: the test setup is broken")

        let inventory = try InventoryScanner.scan(root: tree.root)
        usleep(200_000)  // a grace period for a writer the walk released at the last moment
        for (name, writer) in zip(names, writers) {
            #expect(!writer.hasOpened, "the walk opened the FIFO \(name) for reading")
        }
        for (name, writer) in zip(names, writers) {
            #expect(writer.release(), "writer for \(name) never finished")
        }

        for name in names {
            let index = try #require(inventory.index(ofPath: Array(name.utf8)), "\(name) missing from the inventory")
            let entry = inventory.entries[Int(index)]
            #expect(entry.type == .fifo, "\(name)")
            #expect(!entry.flags.contains(.unreadable), "\(name): a FIFO is recorded, not reported as unreadable")
        }
        #expect(inventory.issues.isEmpty, "\(inventory.issues)")
        #expect(inventory.evidence.appleDoubleSidecars == 0, "a FIFO named ._x is not a sidecar")
    }
}
