import StubdEngine

extension RequestRouter {
    /// Puts `catalog` in force: libmicrohttpd's form of its answers made first (`PreparedAnswers`), so
    /// its first requests pay nothing, then the catalog swapped into the engine. A request between
    /// the two swaps answered from the old catalog finds no prepared form and gets one made for it.
    func install(_ catalog: StubCatalog) {
        preparedAnswers.publish(PreparedAnswers(catalog))
        engine.install(catalog)
    }
}
