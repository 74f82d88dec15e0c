/// One named type of a schema, as much of it as an answer is held to: its kind, its fields (objects,
/// interfaces), its values (enums), the object types it may be (interfaces, unions).
package struct GraphQLSchemaType: Sendable, Hashable {
    package enum Kind: String, Sendable, Hashable {
        case scalar, object, interface, union, `enum`, inputObject = "input object"
    }

    package let name: String
    package var kind: Kind
    /// An object's or interface's fields by name, with their types.
    package var fields: [String: GraphQLTypeReference] = [:]
    /// An enum's values.
    package var enumValues: Set<String> = []
    /// What an object or interface says it implements (`implements Node & Named`).
    package var interfaces: [String] = []
    /// A union's members.
    package var members: [String] = []
    /// Where it is defined (1-based, in the schema's text): where a problem with it is reported.
    package var line: Int
    package var column: Int

    package init(name: String, kind: Kind, line: Int, column: Int) {
        self.name = name
        self.kind = kind
        self.line = line
        self.column = column
    }

    /// An interface or a union: which object type a value is, its `__typename` says.
    package var isAbstract: Bool { kind == .interface || kind == .union }
}
