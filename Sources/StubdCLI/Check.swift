import ArgumentParser
import Stubd
import StubdCore
import StubdEngine

struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Validate a Stubs folder: print the route table, or every problem and exit 1.")
    @OptionGroup var stubs: StubsOption

    @Option(name: .long, help: ArgumentHelp("An OpenAPI 3.x or Swagger 2.0 spec (YAML or JSON, split across files or not) every stub answer must keep to. "
                                            + "Repeat it for a folder holding several specs' stubs: each route is held to the spec that has its operation "
                                            + "(two specs declaring one operation are refused).", valueName: "file"))
    var spec: [String] = []

    @Flag(name: .customLong("strict-spec"), help: SpecOption.strictHelp)
    var strictSpec = false

    @Option(name: .long, help: SchemaFormatMode.help)
    var formats: SchemaFormatMode = .annotate

    @Flag(name: .customLong("swift-compatible"), help: ArgumentHelp("With --spec, also fail on answers a Swift client cannot decode though they keep to the spec (a date-time with fractional seconds or a lower-case 't'); without it they are warnings."))
    var swiftCompatible = false

    @Option(name: .customLong("graphql-schema"), help: GraphQLSchemaOption.help)
    var graphQLSchema: String?

    func validate() throws {
        if swiftCompatible && spec.isEmpty { throw ValidationError("--swift-compatible needs --spec FILE: it holds answers to the spec's date-time formats") }
    }

    func run() throws {
        let contracts = try spec.isEmpty ? nil : SpecOption.load(spec, command: "stubd check", formats: formats, strict: strictSpec)
        let schema = try graphQLSchema.map { try GraphQLSchemaOption.load($0, command: "stubd check") }
        do throws(CatalogLoadError) {
            let catalog = try StubCatalog.load(stubs: stubs.url)
            var swiftWarnings = 0
            var problems: [LoadProblem] = []
            var graphQLChecked = 0
            if let schema {
                // Listed with the spec's problems below, if any: every problem at once.
                let check = StubGraphQLCheck(catalog: catalog, schema: schema)
                for notice in check.notices { print("notice: \(notice)") }
                problems = check.problems
                graphQLChecked = check.checked
            }
            if let contracts {
                let check = StubContractCheck(catalog: catalog, contracts: contracts)
                for notice in check.notices { print("notice: \(notice)") }
                problems += check.problems + (swiftCompatible ? check.swiftWarnings : [])
                if !swiftCompatible {
                    for warning in check.swiftWarnings { print("warning: \(warning) (stubd check --swift-compatible makes this an error)") }
                    swiftWarnings = check.swiftWarnings.count
                }
            }
            if !problems.isEmpty { throw CatalogLoadError(root: stubs.stubs, problems: problems) }
            print(RouteTable.render(catalog))
            // "Keeps to the spec" only where it does: a warning above is an answer a Swift client refuses.
            let against = contracts.map { ", every answer keeps to "
                + $0.contracts.map { "\($0.specName) (OpenAPI \($0.version), \($0.operations.count) operations)" }.joined(separator: " and ")
                + (formats == .annotateAll ? " with its string formats read as descriptions" : "")
                + (swiftWarnings == 0 ? "" : "; \(swiftWarnings) date-time\(swiftWarnings == 1 ? "" : "s") above a Swift client cannot decode") } ?? ""
            var graphQL = ""
            if let graphQLSchema, let schema {
                graphQL = ", \(graphQLChecked) GraphQL answer\(graphQLChecked == 1 ? "" : "s") keep\(graphQLChecked == 1 ? "s" : "") to "
                    + GraphQLSchemaOption.summary(graphQLSchema, schema)
            }
            print("ok: \(catalog.routes.count) routes, \(catalog.quotas.count) quotas from \(stubs.stubs)\(against)\(graphQL)")
        } catch {
            printError("stubd check: \(error.description)")
            throw ExitCode(1)
        }
    }
}
