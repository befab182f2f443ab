import StocktakeModel

extension ReportReader {
    /// Both sides of a diff, read at the same time (each read is independent and mostly parsing, so two
    /// cores halve the wait on million-file reports). The first error, in argument order, is thrown.
    public static func read(old: String, new: String) throws(ReportReadError) -> (
        old: ReportSnapshot, new: ReportSnapshot
    ) {
        let results = SideBySide.values(2) { side in
            Result { () throws(ReportReadError) in try read(path: side == 0 ? old : new) }
        }
        return (try results[0].get(), try results[1].get())
    }
}
