import StocktakeModel
import StocktakeScan

/// What the content checks read beyond the audited inventory: the companion containers walked beside it, and
/// the files a device backup (`--backup`) records with data protection class None.
struct ContentScope: Sendable {
    let unprotected: Set<Int32>
    let companions: [CompanionContainer]

    func sensitiveData(input: AuditInput, inventory: Inventory) -> ([SensitiveItem], [CompanionSensitiveItem]) {
        let own = input.sensitiveData(in: inventory).map { $0.unprotected ? $0 : $0.with(unprotected: unprotected.contains($0.entry)) }
        return (own, companions.flatMap { $0.sensitiveData() })
    }
}
