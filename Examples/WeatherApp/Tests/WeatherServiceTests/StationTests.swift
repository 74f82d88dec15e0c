import Foundation
import StubdClient
import StubdTesting
import Testing
import WeatherService

/// Flows that need the stubs to remember: a station registered and then listed (the `stations`
/// resource of Stubs/stubd.yml), a checkout that moves on as the app calls it and ships on the session's
/// clock (the `checkout` scenario). Each test's session holds its own items, states and clock, so
/// parallel tests never meet.
@Suite struct StationTests {
    static let backyard = Station(externalID: "SF_BACKYARD", name: "Backyard", latitude: 37.77, longitude: -122.42)
    static let rooftop = Station(externalID: "NY_ROOFTOP", name: "Rooftop", latitude: 40.71, longitude: -74.0)
    /// The seed's one station (Stubs/__files/resources/stations.json).
    static let seeded = "SF_TEST001"

    @Test func aRegisteredStationIsListedAfterward() async throws {
        try await withStubServer(stubs: Fixtures.stubs) { server in
            let service = Fixtures.stations(server)

            let created = try await service.register(Self.backyard).get()
            let id = try #require(created.id, "the API gives a registered station its id")
            let listed = try await service.stations().get()

            #expect(listed.map(\.externalID) == [Self.seeded, "SF_BACKYARD"])
            #expect(listed.last == Station(id: id, externalID: "SF_BACKYARD", name: "Backyard", latitude: 37.77, longitude: -122.42))
            await expectItemCount(server, "stations", 2)
            await expectHits(server, "stations.create", 1)
        }
    }

    @Test func parallelSessionsEachListOnlyTheStationsTheyRegistered() async throws {
        try await withStubServer(stubs: Fixtures.stubs) { server in
            let west = server.session("west-\(UUID().uuidString)")
            let east = server.session("east-\(UUID().uuidString)")

            async let westList = Self.registerThenList(Self.backyard, at: west)
            async let eastList = Self.registerThenList(Self.rooftop, at: east)
            let (westSees, eastSees) = try await (westList, eastList)

            #expect(westSees == [Self.seeded, "SF_BACKYARD"])
            #expect(eastSees == [Self.seeded, "NY_ROOFTOP"])
            await expectItemCount(server, "stations", 1)
        }
    }

    private static func registerThenList(_ station: Station, at server: any StubControl) async throws -> [String] {
        let service = Fixtures.stations(server)
        _ = try await service.register(station).get()
        return try await service.stations().get().map(\.externalID)
    }

    @Test func checkoutMovesTheOrderFromOpenToPaid() async throws {
        try await withStubServer(stubs: Fixtures.stubs) { server in
            let shop = Fixtures.shop(server)
            #expect(try await shop.order().get() == StationOrder(status: "open", items: []))

            #expect(try await shop.addToCart("station-kit").get() == StationOrder(status: "open", items: ["station-kit"]))
            await expectScenarioState(server, "checkout", "in-cart")
            #expect(try await shop.pay().get().status == "paid")

            #expect(try await shop.order().get() == StationOrder(status: "paid", items: ["station-kit"]))
            // Paying twice is refused: shop-pay answers only in-cart, and the fallback says why.
            let again = try await shop.pay()
            #expect(again == .failure(.http(status: 409)))
            await expectScenarioState(server, "checkout", "paid")
        }
    }

    @Test func aPaidOrderShipsThirtySecondsLater() async throws {
        try await withStubServer(stubs: Fixtures.stubs) { server in
            let shop = Fixtures.shop(server)
            _ = try await shop.addToCart("station-kit").get()
            #expect(try await shop.pay().get().status == "paid")
            #expect(try await shop.order().get().status == "paid")

            // The shop ships 30 s after payment (the checkout's timed move in Stubs/stubd.yml), on
            // this session's clock: the test moves the clock instead of sleeping.
            try await server.advanceClock(by: .seconds(20))
            #expect(try await shop.order().get().status == "paid", "20 s after payment the order is not shipped yet")
            try await server.advanceClock(by: .seconds(10))
            #expect(try await shop.order().get() == StationOrder(status: "shipped", items: ["station-kit"]))
            await expectScenarioState(server, "checkout", "shipped")
        }
    }
}
