import StubdCore
import StubdEngine

extension CannedResponse {
    /// libmicrohttpd's form of this answer, made on first use and kept with the answer
    /// (`transportForm`): one load per request, no lock.
    var prepared: PreparedResponse { transportForm { PreparedResponse(self) } }
}

extension StubCatalog {
    /// Prepares every answer before the catalog is put in force, so its first requests pay nothing.
    func prepareAnswers() {
        for canned in responses {
            _ = canned.prepared
            for alternative in canned.alternatives { _ = alternative.prepared }
        }
    }
}
