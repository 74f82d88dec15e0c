import Foundation
import StubdEngine

/// One compiled assertion or applicator of a schema: parsed once, so validation only compares.
enum SchemaKeyword {
    /// A JSON type name: `integer` is a number with no fractional part.
    enum TypeName: String, CaseIterable {
        case null, boolean, object, array, number, integer, string
    }

    /// How a `discriminator` picks the branch of a `oneOf`/`anyOf`.
    struct Discriminator {
        let propertyName: String
        /// Discriminator value → the schema it selects (explicit `mapping`, then schema names).
        let branches: [String: SchemaNode]
        /// Whether every branch can be named: an inline branch (no `$ref`, no `mapping` entry) has no
        /// name a value could carry, so a value naming none of `branches` is left to plain `oneOf`.
        let namesEveryBranch: Bool
    }

    case alwaysFalse
    case type([TypeName], nullable: Bool)
    /// `exact`: the values written past 2^53 (by index), where the Double is not the number written.
    case enumeration([JSONValue], exact: [Int: ExactInteger])
    case constant(JSONValue, exact: ExactInteger?)
    case properties([(name: String, schema: SchemaNode)])
    case patternProperties([(pattern: SchemaPattern, schema: SchemaNode)])
    /// `additionalProperties`: what applies to members named neither by `properties` nor by a pattern.
    case additionalProperties(SchemaNode, declared: Set<String>, patterns: [SchemaPattern])
    case required([String])
    case prefixItems([SchemaNode])
    /// `items` (2020-12: after the `prefixItems`; 3.0: every item).
    case items(SchemaNode, from: Int)
    case minLength(Int), maxLength(Int)
    case minItems(Int), maxItems(Int)
    case uniqueItems
    /// `contains` with its bounds: `minContains` (default 1; 0 lets any array pass) and `maxContains`.
    case contains(SchemaNode, min: Int, max: Int?)
    case minProperties(Int), maxProperties(Int)
    /// `exact`: the bound as written when it is an integer past 2^53 (`maximum: 9223372036854775807`
    /// is 2^63 as a Double); nil where the Double is exact or the literal was not kept.
    case minimum(Double, exclusive: Bool, exact: ExactInteger?)
    case maximum(Double, exclusive: Bool, exact: ExactInteger?)
    case multipleOf(Double, exact: ExactInteger?)
    case pattern(SchemaPattern)
    case format(SchemaFormat)
    /// A string `format` under `--formats annotate` (the default): never asserted, but a date-time
    /// is still found for the Swift-decodability warnings (`JSONSchema.dateTimes`).
    case formatAnnotation(SchemaFormat)
    case allOf([SchemaNode])
    case anyOf([SchemaNode], discriminator: Discriminator?)
    case oneOf([SchemaNode], discriminator: Discriminator?)
    case not(SchemaNode)
    case ref(SchemaNode, target: String)

    /// The schema keyword as written, for the schema path of a violation.
    var name: String {
        switch self {
        case .alwaysFalse: return "false"
        case .type: return "type"
        case .enumeration: return "enum"
        case .constant: return "const"
        case .properties: return "properties"
        case .patternProperties: return "patternProperties"
        case .additionalProperties: return "additionalProperties"
        case .required: return "required"
        case .prefixItems: return "prefixItems"
        case .items: return "items"
        case .minLength: return "minLength"
        case .maxLength: return "maxLength"
        case .minItems: return "minItems"
        case .maxItems: return "maxItems"
        case .uniqueItems: return "uniqueItems"
        case .contains: return "contains"
        case .minProperties: return "minProperties"
        case .maxProperties: return "maxProperties"
        case .minimum(_, let exclusive, _): return exclusive ? "exclusiveMinimum" : "minimum"
        case .maximum(_, let exclusive, _): return exclusive ? "exclusiveMaximum" : "maximum"
        case .multipleOf: return "multipleOf"
        case .pattern: return "pattern"
        case .format, .formatAnnotation: return "format"
        case .allOf: return "allOf"
        case .anyOf: return "anyOf"
        case .oneOf: return "oneOf"
        case .not: return "not"
        case .ref: return "$ref"
        }
    }
}
