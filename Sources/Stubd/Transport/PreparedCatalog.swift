import CMicroHTTPD
import Foundation
import StubdCore
import Synchronization

/// One catalog's answers in libmicrohttpd's form, indexed like `StubCatalog.responses`.
final class PreparedCatalog: Sendable {
    let generation: UInt64
    let answers: [PreparedResponse]

    init(_ catalog: StubCatalog) {
        generation = catalog.generation
        answers = catalog.responses.map(PreparedResponse.init)
    }

    init() {
        generation = 0
        answers = []
    }
}
