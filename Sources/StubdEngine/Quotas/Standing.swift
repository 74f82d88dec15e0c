/// A `LimitStatus` by the limit's position in its quota: plain numbers, so passing it around the
/// request path copies no strings.
package struct Standing: Sendable {
    let index: Int
    let remaining: Int
    let resetsIn: Int
    let used: Int
}
