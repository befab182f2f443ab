extension String {
    /// `scalars` escaped one by one: `escape` appends what each scalar becomes. The one loop of the HTML, XML,
    /// Markdown and GitHub escapers, so each of them says only what it replaces.
    package init(escaping scalars: some Collection<Unicode.Scalar>, _ escape: (Unicode.Scalar, inout String) -> Void) {
        self = ""
        unicodeScalars.reserveCapacity(scalars.underestimatedCount)
        for scalar in scalars { escape(scalar, &self) }
    }
}
