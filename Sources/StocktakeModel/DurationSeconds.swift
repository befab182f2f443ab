extension Duration {
    /// The duration in seconds, as a timing is shown or exported.
    public var inSeconds: Double {
        let (whole, fraction) = components
        return Double(whole) + Double(fraction) / 1e18
    }
}
