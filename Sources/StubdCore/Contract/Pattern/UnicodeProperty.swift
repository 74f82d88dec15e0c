import StubdEngine

/// A `\p{…}` of a pattern: a General_Category (`L`, `Lu`, `Letter`, `gc=Nd`) or one of the binary
/// properties Swift knows (`Alphabetic`, `White_Space`, `ASCII`…), possibly negated (`\P{…}`).
indirect enum UnicodeProperty: Sendable, Equatable {
    case categories(Set<Unicode.GeneralCategory>, negated: Bool)
    case binary(Binary, negated: Bool)
    /// An inverted class inside another (`[^\P{L}x]`'s inner members).
    case complementOf(ScalarSet)

    enum Binary: String, Sendable, CaseIterable {
        case any = "Any", ascii = "ASCII", assigned = "Assigned", alphabetic = "Alphabetic", uppercase = "Uppercase",
             lowercase = "Lowercase", whiteSpace = "White_Space", emoji = "Emoji", hexDigit = "Hex_Digit",
             asciiHexDigit = "ASCII_Hex_Digit", math = "Math", ideographic = "Ideographic"
    }

    func contains(_ s: Unicode.Scalar) -> Bool {
        switch self {
        case .categories(let set, let negated):
            return set.contains(s.properties.generalCategory) != negated
        case .binary(let property, let negated):
            let p = s.properties
            let value: Bool
            switch property {
            case .any: value = true
            case .ascii: value = s.isASCII
            case .assigned: value = p.generalCategory != .unassigned
            case .alphabetic: value = p.isAlphabetic
            case .uppercase: value = p.isUppercase
            case .lowercase: value = p.isLowercase
            case .whiteSpace: value = p.isWhitespace
            case .emoji: value = p.isEmoji
            case .hexDigit: value = p.isHexDigit
            case .asciiHexDigit: value = p.isASCIIHexDigit
            case .math: value = p.isMath
            case .ideographic: value = p.isIdeographic
            }
            return value != negated
        case .complementOf(let set):
            return set.contains(s.value)
        }
    }

    /// The property a `\p{name}` names, nil when it names none this engine knows.
    init?(name: String, negated: Bool) {
        var text = name
        for prefix in ["General_Category=", "gc="] where text.hasPrefix(prefix) { text = String(text.dropFirst(prefix.count)) }
        if let set = UnicodeProperty.categoryNames[text] {
            self = .categories(set, negated: negated)
        } else if let binary = Binary(rawValue: text) {
            self = .binary(binary, negated: negated)
        } else {
            return nil
        }
    }

    private static let categoryNames: [String: Set<Unicode.GeneralCategory>] = {
        typealias G = Unicode.GeneralCategory
        let single: [(String, String, G)] = [
            ("Lu", "Uppercase_Letter", .uppercaseLetter), ("Ll", "Lowercase_Letter", .lowercaseLetter),
            ("Lt", "Titlecase_Letter", .titlecaseLetter), ("Lm", "Modifier_Letter", .modifierLetter),
            ("Lo", "Other_Letter", .otherLetter), ("Mn", "Nonspacing_Mark", .nonspacingMark),
            ("Mc", "Spacing_Mark", .spacingMark), ("Me", "Enclosing_Mark", .enclosingMark),
            ("Nd", "Decimal_Number", .decimalNumber), ("Nl", "Letter_Number", .letterNumber),
            ("No", "Other_Number", .otherNumber), ("Pc", "Connector_Punctuation", .connectorPunctuation),
            ("Pd", "Dash_Punctuation", .dashPunctuation), ("Ps", "Open_Punctuation", .openPunctuation),
            ("Pe", "Close_Punctuation", .closePunctuation), ("Pi", "Initial_Punctuation", .initialPunctuation),
            ("Pf", "Final_Punctuation", .finalPunctuation), ("Po", "Other_Punctuation", .otherPunctuation),
            ("Sm", "Math_Symbol", .mathSymbol), ("Sc", "Currency_Symbol", .currencySymbol),
            ("Sk", "Modifier_Symbol", .modifierSymbol), ("So", "Other_Symbol", .otherSymbol),
            ("Zs", "Space_Separator", .spaceSeparator), ("Zl", "Line_Separator", .lineSeparator),
            ("Zp", "Paragraph_Separator", .paragraphSeparator), ("Cc", "Control", .control),
            ("Cf", "Format", .format), ("Cs", "Surrogate", .surrogate), ("Co", "Private_Use", .privateUse),
            ("Cn", "Unassigned", .unassigned),
        ]
        var names: [String: Set<G>] = [:]
        for (short, long, category) in single { names[short] = [category]; names[long] = [category] }
        for (short, long) in [("L", "Letter"), ("M", "Mark"), ("N", "Number"), ("P", "Punctuation"), ("S", "Symbol"),
                              ("Z", "Separator"), ("C", "Other")] {
            let group = Set(single.filter { $0.0.hasPrefix(short) }.map(\.2))
            names[short] = group
            names[long] = group
        }
        names["LC"] = [.uppercaseLetter, .lowercaseLetter, .titlecaseLetter]
        names["Cased_Letter"] = names["LC"]
        names["digit"] = [.decimalNumber]
        return names
    }()
}
