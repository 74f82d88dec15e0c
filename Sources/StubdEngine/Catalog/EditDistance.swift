/// Levenshtein distance, for "did you mean" hints.
package func editDistance(_ a: String, _ b: String) -> Int {
    let (a, b) = (Array(a.lowercased()), Array(b.lowercased()))
    if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
    var previous = Array(0...b.count)
    for i in 1...a.count {
        var current = [i] + Array(repeating: 0, count: b.count)
        for j in 1...b.count {
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
        }
        previous = current
    }
    return previous[b.count]
}
