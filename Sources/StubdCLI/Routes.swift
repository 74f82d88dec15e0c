import ArgumentParser
import Stubd
import StubdCore
import StubdEngine

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
