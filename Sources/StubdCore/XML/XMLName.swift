import StubdEngine

/// Element and attribute names as XML allows them (XML 1.0 §2.3, without the colon, which only a
/// prefix may bring): a JSON member may be called anything (`first name`, `2fa`), an element may not.
enum XMLName {
    /// `name` made a valid name: each character XML does not take in a name becomes `_`, and a name
    /// that cannot start so is given a leading `_` (`2fa` → `_2fa`, `first name` → `first_name`).
    static func sanitized(_ name: String) -> String {
        var out = ""
        for scalar in name.unicodeScalars {
            out.unicodeScalars.append(isNameCharacter(scalar) ? scalar : "_")
        }
        guard let first = out.unicodeScalars.first else { return "_" }
        return isNameStart(first) ? out : "_" + out
    }

    /// `prefix:name`, or `name` without a prefix; both parts made valid.
    static func qualified(_ name: String, prefix: String?) -> String {
        guard let prefix, !prefix.isEmpty else { return sanitized(name) }
        return sanitized(prefix) + ":" + sanitized(name)
    }

    /// `name` of `pet:name`: the reader matches members by local name, whatever their prefix.
    static func local(_ qualified: String) -> String {
        guard let colon = qualified.lastIndex(of: ":") else { return qualified }
        return String(qualified[qualified.index(after: colon)...])
    }

    static func isNameStart(_ c: Unicode.Scalar) -> Bool {
        switch c.value {
        case 0x41...0x5A, 0x61...0x7A, 0x5F: return true   // A-Z a-z _
        case 0xC0...0xD6, 0xD8...0xF6, 0xF8...0x2FF, 0x370...0x37D, 0x37F...0x1FFF, 0x200C...0x200D,
             0x2070...0x218F, 0x2C00...0x2FEF, 0x3001...0xD7FF, 0xF900...0xFDCF, 0xFDF0...0xFFFD, 0x10000...0xEFFFF:
            return true
        default: return false
        }
    }

    static func isNameCharacter(_ c: Unicode.Scalar) -> Bool {
        if isNameStart(c) { return true }
        switch c.value {
        case 0x30...0x39, 0x2D, 0x2E, 0xB7, 0x300...0x36F, 0x203F...0x2040: return true   // 0-9 - . · and combining marks
        default: return false
        }
    }
}
