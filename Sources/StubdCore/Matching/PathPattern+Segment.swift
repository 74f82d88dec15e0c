extension PathPattern {
    /// The n-th non-empty segment of a path, without splitting the rest of it.
    static func segment(_ n: Int, of path: String) -> Substring? {
        let bytes = path.utf8
        var seen = 0
        var start = bytes.startIndex
        var index = start
        while true {
            let atEnd = index == bytes.endIndex
            if atEnd || bytes[index] == UInt8(ascii: "/") {
                if index > start {
                    if seen == n { return path[start..<index] }
                    seen += 1
                }
                if atEnd { return nil }
                start = bytes.index(after: index)
            }
            index = bytes.index(after: index)
        }
    }
}
