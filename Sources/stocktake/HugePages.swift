#if os(Linux)
    import Glibc

    /// Large allocations backed by transparent huge pages. A million-file audit touches about 450 MB, and faulting that
    /// in 4 KiB pages cost about 9% of its wall time here (Benchmarks/run.sh: 3.20 s → 2.92 s). glibc backs its
    /// allocations with huge pages only when asked before the process starts (`GLIBC_TUNABLES=glibc.malloc.hugetlb=1`,
    /// glibc 2.35 and later; ignored by older ones), so the commands that walk or read large trees start themselves
    /// again once with the tunable set. Set `STOCKTAKE_SMALL_PAGES=1` to skip that.
    enum HugePages {
        /// Commands that stay small: not worth the second start (about 12 ms).
        private static let smallCommands: Set<String> = [
            "apps", "simulators", "rules", "init", "history", "help", "-h", "--help", "--version",
        ]
        private static let tunable = "glibc.malloc.hugetlb=1"

        /// Returns only if the process keeps running as it is (already asked, opted out, or exec failed).
        static func restartWithHugePagesIfUseful() {
            let arguments = CommandLine.arguments.dropFirst()
            if let first = arguments.first, smallCommands.contains(first) { return }
            if getenv("STOCKTAKE_SMALL_PAGES") != nil { return }
            let current = getenv("GLIBC_TUNABLES").map { String(cString: $0) } ?? ""
            if current.contains("glibc.malloc.hugetlb") { return }
            setenv("GLIBC_TUNABLES", current.isEmpty ? tunable : current + ":" + tunable, 1)
            execv("/proc/self/exe", CommandLine.unsafeArgv)
            // No /proc, or the binary is gone: run on with small pages, and leave the environment as it was.
            if current.isEmpty { unsetenv("GLIBC_TUNABLES") } else { setenv("GLIBC_TUNABLES", current, 1) }
        }
    }
#endif
