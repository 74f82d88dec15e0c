import ArgumentParser
import Foundation
import Stubd
import StubdClient
import StubdCore

struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Validate a Stubs folder: print the route table, or every problem and exit 1.")
    @OptionGroup var stubs: StubsOption

    @Option(name: .long, help: ArgumentHelp("An OpenAPI 3.0/3.1 spec (YAML or JSON) every stub answer must keep to.", valueName: "file"))
    var spec: String?

    func run() throws {
        let contract = try spec.map { try SpecOption.load($0, command: "stubd check") }
        do throws(CatalogLoadError) {
            let catalog = try StubCatalog.load(stubs: stubs.url)
            if let contract {
                let check = StubContractCheck(catalog: catalog, contract: contract)
                for notice in check.notices { print("notice: \(notice)") }
                if !check.problems.isEmpty { throw CatalogLoadError(root: stubs.stubs, problems: check.problems) }
            }
            print(RouteTable.render(catalog))
            let against = contract.map { ", every answer keeps to \($0.specName) (OpenAPI \($0.version), \($0.operations.count) operations)" } ?? ""
            print("ok: \(catalog.routes.count) routes, \(catalog.quotas.count) quotas from \(stubs.stubs)\(against)")
        } catch {
            printError("stubd check: \(error.description)")
            throw ExitCode(1)
        }
    }
}

/// `--spec FILE`, read the same way by `check` and `serve`.
enum SpecOption {
    static func load(_ path: String, command: String) throws -> APIContract {
        do {
            return try APIContract.load(spec: URL(fileURLWithPath: path))
        } catch {
            printError("\(command): cannot read the spec \(path): \(error.description)")
            throw ExitCode(1)
        }
    }
}

struct Routes: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Print the route table of a Stubs folder.")
    @OptionGroup var stubs: StubsOption

    func run() throws {
        do {
            print(RouteTable.render(try StubCatalog.load(stubs: stubs.url)))
        } catch {
            printError("stubd routes: \(error.description)")
            throw ExitCode(1)
        }
    }
}

enum RouteTable {
    static func render(_ catalog: StubCatalog) -> String {
        var rows = [["ROUTE", "NAME", "PRIORITY", "QUOTAS", "SOURCE"]]
        for r in catalog.routes {
            rows.append([r.signature, r.name ?? "-", String(r.priority),
                         r.quotas.map(\.name).joined(separator: ",").ifEmpty("-"),
                         r.source.description])
        }
        return table(rows)
    }

    static func table(_ rows: [[String]]) -> String {
        guard let first = rows.first else { return "" }
        let widths = first.indices.map { i in rows.map { $0[i].count }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { i, cell in i == row.count - 1 ? cell : cell.padding(toLength: widths[i], withPad: " ", startingAt: 0) }
                .joined(separator: "  ")
        }.joined(separator: "\n")
    }
}

extension String {
    func ifEmpty(_ replacement: String) -> String { isEmpty ? replacement : self }
}

struct Hits: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Show hits and quota state of a running stubd.")
    @OptionGroup var server: ServerOption

    func run() async throws {
        try await server.call("hits") { client in
            let hits = try await client.allHits()
            var rows = [["ROUTE", "HITS"]]
            for (route, count) in hits.sorted(by: { ($0.value, $1.key) > ($1.value, $0.key) }) { rows.append([route, String(count)]) }
            print(RouteTable.table(rows))
            let forwarded = try await client.forwardedHits()
            if !forwarded.isEmpty {
                var proxied = [["PROXIED TO THE REAL API", "HITS"]]
                for (path, count) in forwarded.sorted(by: { ($0.value, $1.key) > ($1.value, $0.key) }) { proxied.append([path, String(count)]) }
                print(""); print(RouteTable.table(proxied))
            }
            let quotas = try await client.quotaTable()
            if quotas.count > 1 { print(""); print(RouteTable.table(quotas)) }
            let unmatched = try await client.unmatchedReport()
            if unmatched.count > 0 {
                print("\n\(unmatched.count) unmatched request(s)" + (unmatched.nearest.isEmpty ? "" : "; latest: " + unmatched.nearest.prefix(3).joined(separator: "; ")))
            }
        }
    }
}

struct Reset: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Reset hits, sequences, quotas, journal, runtime stubs and clock of a running stubd.")
    @OptionGroup var server: ServerOption

    func run() async throws {
        try await server.call("reset") { client in
            try await client.reset()
            print("reset \(server.session.map { "session \($0)" } ?? "all sessions") at \(server.url)")
        }
    }
}
