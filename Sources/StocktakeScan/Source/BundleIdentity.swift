import StocktakeModel

/// Whose container this is, from evidence ranked by who wrote it: the metadata plists, then what iOS writes for the
/// app (snapshots, saved state, per-process folders), then preferences, where SDKs write too. Never guesses:
/// conflicting clues with no winner make the identity ambiguous, with the candidates listed.
struct BundleIdentity: Equatable {
    let identifier: String?
    let source: BundleIdentifierSource
    let candidates: [String]

    /// Decides from clues listed strongest source first (`IdentityClues.collect` order).
    static func decide(_ clues: [IdentityClue]) -> BundleIdentity {
        if let authority = clues.first(where: \.source.isAuthoritative) {
            return BundleIdentity(identifier: authority.identifier, source: authority.source, candidates: [])
        }
        // Tier by tier: the first tier with any clue decides; weaker tiers only confirm.
        let tiers: [Set<BundleIdentifierSource>] = [
            [.launchSnapshot], [.savedState, .httpStorage, .cachesFolder, .webKitFolder], [.preferencesFile],
        ]
        for tier in tiers {
            var seen = Set<String>()
            let named = clues.filter { tier.contains($0.source) && seen.insert($0.identifier).inserted }
                .map(\.identifier)
            guard !named.isEmpty else { continue }
            let winners = strongestSupport(among: named, clues: clues)
            if winners.count == 1,
                let winner = clues.first(where: { $0.identifier == winners[0] && tier.contains($0.source) })
            {
                return BundleIdentity(identifier: winner.identifier, source: winner.source, candidates: [])
            }
            return BundleIdentity(identifier: nil, source: .ambiguous, candidates: winners)
        }
        return BundleIdentity(identifier: nil, source: .none, candidates: [])
    }

    /// The ids with the most kinds of clue behind them (a confirmed id beats a lone one).
    private static func strongestSupport(among ids: [String], clues: [IdentityClue]) -> [String] {
        let support = ids.map { id in Set(clues.filter { $0.identifier == id }.map(\.source)).count }
        let best = support.max() ?? 0
        return zip(ids, support).filter { $0.1 == best }.map(\.0)
    }
}
