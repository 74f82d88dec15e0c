package import Foundation
package import StubdEngine

extension StubCatalog {
    /// A folder's catalog held to the OpenAPI `contracts` and to a GraphQL `schema`, each when given:
    /// a GraphQL answer that breaks the schema or its query is a load problem listed with the rest.
    /// What `stubd serve --graphql-schema` (`StubServer`) loads, at start and at every reload.
    package static func load(stubs: URL, heldTo contracts: ContractSet?, graphQLSchema: GraphQLSchema?) throws(CatalogLoadError) -> StubCatalog {
        let catalog = try load(stubs: stubs, heldTo: contracts)
        if let graphQLSchema {
            let check = StubGraphQLCheck(catalog: catalog, schema: graphQLSchema)
            if !check.problems.isEmpty { throw CatalogLoadError(root: stubs.path, problems: check.problems) }
        }
        return catalog
    }
}
