import Foundation
import StubdClient
import StubdTesting
import Testing
import WeatherService

/// The app's GraphQL call (issue 63): `AccountService.me` posts the `Me` operation to `/graphql`, and
/// Examples/graphql/Stubs answers it from `graphql/Me.graphql.json`, by the operation's name.
/// Not run against a daemon (`STUBD_URL`): scripts/test's daemon serves the top-level Stubs/.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["STUBD_URL"] == nil, "its stubs are Examples/graphql/Stubs; the daemon serves Stubs/"))
struct AccountTests {
    @Test func theSignedInAccountComesFromTheMeOperation() async throws {
        try await withStubServer(stubs: Fixtures.graphQLStubs) { server in
            let account = try await Fixtures.account(server).me().get()

            #expect(account == Account(id: "1", name: "Ada Lovelace"))
            await expectOperation(server, "Me", 1)
        }
    }
}
