package import Foundation
package import StubdEngine

extension StubCatalog {
    /// A folder's catalog, held to `contracts` when there are any: a stub that breaks its operation
    /// is a load problem like any other, listed with the rest. What `stubd serve` (`StubServer`) and
    /// the in-process stubs (`InProcessFront`) load, the same way.
    package static func load(stubs: URL, heldTo contracts: ContractSet?) throws(CatalogLoadError) -> StubCatalog {
        let catalog = try StubCatalog.load(stubs: stubs)
        if let contracts {
            let check = StubContractCheck(catalog: catalog, contracts: contracts)
            if !check.problems.isEmpty { throw CatalogLoadError(root: stubs.path, problems: check.problems) }
        }
        return catalog
    }
}
