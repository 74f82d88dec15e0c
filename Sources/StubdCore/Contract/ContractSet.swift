package import HTTPTypes
package import StubdEngine

/// The specs a folder is held to (`serve --spec A --spec B`, `check --spec A --spec B`), kept apart:
/// each request and each stub route is judged by the spec that declares its operation, so a message
/// names that spec's file, not a merged document's. Built once at load; immutable.
///
/// Two specs declaring one operation (the same method on the same path template, parameter names
/// aside) are refused at load: a request to it could be judged by either, and which one judged it
/// would decide whether it is refused. A path that only overlaps another (`/v1/things/mine` beside
/// `/v1/things/{id}`) is the more specific one's, as within one spec.
package struct ContractSet: Sendable {
    /// In the order given; never empty.
    package let contracts: [APIContract]

    /// Every spec's server path prefixes (`ServerPathPrefix`), longest first: a request under one is
    /// answered by the route written without it when none is written with it.
    package let serverPrefixes: [ServerPathPrefix]

    /// A set of one: what `serve --spec FILE` and the in-process helpers hold.
    package init(_ contract: APIContract) {
        contracts = [contract]
        serverPrefixes = contract.serverPrefixes
    }

    /// Refuses two specs that declare one operation, naming both places.
    package init(_ contracts: [APIContract]) throws(SpecLoadError) {
        precondition(!contracts.isEmpty, "a contract set holds at least one spec")
        var claimed: [OperationKey: (operation: ContractOperation, contract: APIContract)] = [:]
        var problems: [LoadProblem] = []
        for contract in contracts {
            for operation in contract.operations {
                let key = OperationKey(method: operation.method, shape: operation.path.shape)
                if let first = claimed[key] {
                    problems.append(LoadProblem(
                        file: contract.specName,
                        message: "\(operation.signature) (\(operation.location)) is also declared by \(first.contract.specName) "
                            + "(\(first.operation.signature) at \(first.operation.location)): a request to it could be judged by either spec",
                        hint: "serve these specs from separate stubd servers (their API hosts differ), or remove the operation from one of them"))
                } else {
                    claimed[key] = (operation, contract)
                }
            }
        }
        guard problems.isEmpty else { throw SpecLoadError(problems: problems) }
        self.contracts = contracts
        var prefixes: [ServerPathPrefix] = []
        for prefix in contracts.flatMap(\.serverPrefixes) where !prefixes.contains(prefix) { prefixes.append(prefix) }
        serverPrefixes = prefixes.sorted { $0.segments.count > $1.segments.count }
    }

    private struct OperationKey: Hashable {
        let method: HTTPRequest.Method
        let shape: [PatternSegment]
    }

    /// The spec that declares the operation a request with this method and path is for; nil when
    /// none does. With one spec, that spec (it finds no operation either): no lookup on the way.
    package func contract(method: HTTPRequest.Method, path: [Substring]) -> APIContract? {
        if contracts.count == 1 { return contracts[0] }
        var best: (contract: APIContract, operation: ContractOperation)?
        for contract in contracts {
            guard let (operation, _) = contract.operation(method: method, path: path) else { continue }
            if best == nil || operation.path.isMoreSpecific(than: best!.operation.path) == true { best = (contract, operation) }
        }
        return best?.contract
    }

    /// As `contract(method:path:)`, for a path as written (`/orders/42`): a live answer's in `stubd drift`.
    package func contract(method: HTTPRequest.Method, requestPath: String) -> APIContract? {
        contract(method: method, path: PathPattern.split(requestPath))
    }

    /// As `contract(method:path:)`, for a request as received.
    package func contract(for request: RequestHead) -> APIContract? {
        contract(method: request.method, path: request.segments)
    }

    /// The operation a stub route answers for, and the spec that declares it (`APIContract.operation(for:)`
    /// in each spec, the most specific path winning).
    package func owner(of route: Route) -> (operation: ContractOperation, contract: APIContract)? {
        var best: (operation: ContractOperation, contract: APIContract)?
        for contract in contracts {
            guard let operation = contract.operation(for: route) else { continue }
            if best == nil || operation.path.isMoreSpecific(than: best!.operation.path) == true { best = (operation, contract) }
        }
        return best
    }

    /// Every spec's file name, for a message that speaks of them all: `a.yaml`, `a.yaml and b.yaml`.
    package var names: String {
        contracts.map(\.specName).joined(separator: " and ")
    }

    /// As `names`, for a message that says none of them has something: `a.yaml or b.yaml`.
    package var namesEither: String {
        contracts.map(\.specName).joined(separator: " or ")
    }
}
