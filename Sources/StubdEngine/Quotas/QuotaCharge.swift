/// What `QuotaLedger.charge` says: accepted or not, the limit nearest to running out, and the
/// whole verdict when the request was rejected (its answer names every violated limit).
package struct QuotaCharge {
    let accepted: Bool
    /// Accepted after this key's last request was refused: its window passed (coverage counts it).
    var recovered = false
    /// For an accepted request.
    let tightest: Standing?
    let verdict: QuotaVerdict?
}
