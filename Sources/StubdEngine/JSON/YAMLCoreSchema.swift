package import Yams

/// YAML 1.2's core schema, the one OpenAPI 3 names for its YAML form, for every file stubd reads as
/// YAML (specs and manifests).
///
/// Yams' default resolver is YAML 1.1's: `NO` (Norway), `no`, `on`, `y` and `yes` become booleans,
/// `010` is octal, `1_000` and `1:30` are numbers and `2024-05-01` a timestamp, so `enum: [NO, SE]`
/// was read as `[false, "SE"]` and `description: no` as a boolean. Under 1.2 only `true`/`false`
/// (in three casings) are booleans, and numbers are decimal, `0o` octal or `0x` hexadecimal.
package enum YAMLCoreSchema {
    // swiftlint:disable force_try
    package static let resolver: Resolver = try! Resolver.basic
        .appending(.null, "^(?:~|null|Null|NULL|)$")
        .appending(.bool, "^(?:true|True|TRUE|false|False|FALSE)$")
        .appending(.int, "^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$")
        .appending(.float, "^(?:[-+]?(?:\\.[0-9]+|[0-9]+(?:\\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\\.(?:inf|Inf|INF)|\\.(?:nan|NaN|NAN))$")
    // swiftlint:enable force_try

    /// The value of a scalar the resolver tagged `int` or `float`, read as 1.2 reads it (Yams'
    /// own constructors read `010` as octal 8, 1.1's way). `Double(_:)` written out: `.map(Double.init)`
    /// on a UInt64 picks `init(bitPattern:)`.
    static func number(_ text: String) -> Double? {
        if text.hasPrefix("0x") { return UInt64(text.dropFirst(2), radix: 16).map { Double($0) } }
        if text.hasPrefix("0o") { return UInt64(text.dropFirst(2), radix: 8).map { Double($0) } }
        switch text {
        case ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF": return .infinity
        case "-.inf", "-.Inf", "-.INF": return -.infinity
        case ".nan", ".NaN", ".NAN": return .nan
        default: return Double(text)
        }
    }

    /// The number a scalar writes, exactly (see `NumberLiteral`): hexadecimal and octal too.
    static func literal(_ text: String) -> NumberLiteral? {
        if text.hasPrefix("0x") { return UInt64(text.dropFirst(2), radix: 16).map { NumberLiteral(integer: ExactInteger(negative: false, magnitude: $0)) } }
        if text.hasPrefix("0o") { return UInt64(text.dropFirst(2), radix: 8).map { NumberLiteral(integer: ExactInteger(negative: false, magnitude: $0)) } }
        return NumberLiteral(text)
    }
}
