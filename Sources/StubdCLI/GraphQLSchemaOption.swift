import ArgumentParser
import Foundation
import StubdCore
import StubdEngine

/// `--graphql-schema FILE`, read the same way by `check` and `serve`.
enum GraphQLSchemaOption {
    static let help = ArgumentHelp("A GraphQL schema in SDL (schema.graphqls) or an introspection result (schema.json) every GraphQL stub's answer must keep to, and to the selection set "
                                   + "of the query its route answers (graphql.query): a field selected and missing, one not selected, a wrong type, "
                                   + "a null in a non-null field, an unknown enum value, each at the stub's file:line:column with the field's path.",
                                   valueName: "file")

    static func load(_ path: String, command: String) throws -> GraphQLSchema {
        do throws(GraphQLSchemaFile.LoadError) {
            return try GraphQLSchemaFile.load(URL(fileURLWithPath: path))
        } catch {
            printError("\(command): cannot read the GraphQL schema \(error.description)")
            throw ExitCode(1)
        }
    }

    /// How `check` and `serve` name the schema: `schema.graphqls (4 types)`, its own types only.
    static func summary(_ path: String, _ schema: GraphQLSchema) -> String {
        "\((path as NSString).lastPathComponent) (\(schema.types.count) type\(schema.types.count == 1 ? "" : "s"))"
    }
}
