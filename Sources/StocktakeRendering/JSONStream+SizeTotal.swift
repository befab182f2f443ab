import StocktakeModel

extension JSONStream {
    /// A size total as every report and diff writes it: `{"allocatedBytes":…,"apparentBytes":…,"files":…}`.
    public func total(_ total: SizeTotal) throws {
        try beginObject(compact: true)
        try key("allocatedBytes"); try int(total.allocatedBytes)
        try key("apparentBytes"); try int(total.apparentBytes)
        try key("files"); try int(total.files)
        try endObject()
    }
}
