/// The state of one limit for one key.
package struct LimitState {
    /// fixed: requests in the current calendar window; token_bucket: tokens spent (capacity − tokens).
    var used: Double = 0
    /// fixed: start of the current window; token_bucket: last refill time.
    var since: Double = 0
    /// sliding: the times of accepted requests still inside the window, oldest first.
    var times: [Double] = []
    var head = 0
}
