package import Foundation
package import StubdEngine

/// `--graphql-schema FILE`: a schema in SDL (`schema.graphqls`, `.graphql`, `.sdl`), read by
/// `GraphQLSchema(parsing:)`, or an introspection result in JSON (`schema.json`: a file whose first
/// character is `{`). A file that cannot be read or does not parse throws, saying
/// `file:line:column` and what is wrong.
package enum GraphQLSchemaFile {
    package struct LoadError: Error, CustomStringConvertible {
        package let description: String
    }

    package static func load(_ url: URL) throws(LoadError) -> GraphQLSchema {
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw LoadError(description: "\(url.path): cannot read the file (\(error.localizedDescription))")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw LoadError(description: "\(url.path): not UTF-8 text; a GraphQL schema (SDL) is UTF-8")
        }
        if text.first(where: { !$0.isWhitespace }) == "{" { return try introspection(data, url) }
        do {
            return try GraphQLSchema(parsing: text)
        } catch {
            throw LoadError(description: "\(url.path):\(error.line):\(error.column): \(error.message)")
        }
    }

    static func introspection(_ data: Data, _ url: URL) throws(LoadError) -> GraphQLSchema {
        let json: JSONValue
        do { json = try JSONParser.parse(data) } catch {
            throw LoadError(description: "\(url.path):\(error.line):\(error.column): \(error.message)")
        }
        do {
            return try GraphQLSchema(introspection: json)
        } catch {
            let place = JSONTextPosition.of(error.pointer, in: data).map { ":\($0.line):\($0.column)" } ?? ""
            throw LoadError(description: "\(url.path)\(place): \(error.message)")
        }
    }
}
