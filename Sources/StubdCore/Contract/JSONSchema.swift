public import StubdEngine

/// A compiled schema: validate as many instances against it as needed, from any thread.
public struct JSONSchema: Sendable {
    let root: SchemaNode

    init(root: SchemaNode) {
        self.root = root
    }

    /// Compiles a standalone schema document (its `$ref`s point within it).
    public init(_ schema: JSONValue, dialect: SchemaDialect = .jsonSchema2020) throws(SchemaError) {
        self = try SchemaCompiler(document: schema, dialect: dialect).schema(at: "#")
    }

    /// Every way `instance` breaks the schema, in document order, at most `limit` of them.
    public func validate(_ instance: JSONValue, limit: Int = 100) -> [SchemaViolation] {
        var evaluator = SchemaEvaluator(limit: limit)
        evaluator.evaluate(root, instance)
        evaluator.finish()
        return evaluator.violations
    }

    /// As `validate`, comparing the numbers `literals` holds (`JSONParser.parseKeepingLiterals`) as written.
    package func validate(_ instance: JSONValue, literals: [String: NumberLiteral], limit: Int = 100) -> [SchemaViolation] {
        var evaluator = SchemaEvaluator(limit: limit)
        evaluator.literals = literals
        evaluator.evaluate(root, instance)
        evaluator.finish()
        return evaluator.violations
    }

    /// The strings of `instance` that keep to a `format: date-time` of the schema, at their JSON pointers
    /// (a branch of `anyOf`/`oneOf` tried and left may add one).
    package func dateTimes(in instance: JSONValue) -> [(pointer: String, text: String)] {
        var evaluator = SchemaEvaluator(limit: 100)
        evaluator.dateTimes = []
        evaluator.evaluate(root, instance)
        var seen: Set<String> = []
        return (evaluator.dateTimes ?? []).filter { seen.insert($0.pointer).inserted }
    }

    /// Whether `instance` matches, stopping at the first violation.
    public func isValid(_ instance: JSONValue) -> Bool {
        var evaluator = SchemaEvaluator(limit: 1)
        return evaluator.evaluate(root, instance) && evaluator.undecidedPatterns.isEmpty
    }

    /// What the root asserts of a number, through `$ref` and `allOf`: whether only an integer will do
    /// and whether it is an `int64`. A parameter's text is judged by these before it is a JSON number.
    package var numberAssertions: (integerOnly: Bool, int64: Bool) {
        var integerOnly = false, int64 = false
        var pending = [root], seen: Set<ObjectIdentifier> = []
        while let node = pending.popLast() {
            guard seen.insert(ObjectIdentifier(node)).inserted else { continue }
            for keyword in node.keywords {
                switch keyword {
                case .type(let names, _): if names.contains(.integer), !names.contains(.number) { integerOnly = true }
                case .format(.int64): int64 = true
                case .ref(let target, _): pending.append(target)
                case .allOf(let all): pending += all
                default: break
                }
            }
        }
        return (integerOnly, int64)
    }
}
