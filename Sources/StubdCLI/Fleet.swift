import ArgumentParser

/// `stubd fleet`: the admin calls that mean "the whole server", made on every replica behind a
/// balancer. A balancer that keeps each session on one replica (Examples/fleet/nginx.conf) sends a
/// call without a session to one replica only, so `stubd reset` through it would leave the others'
/// sessions as they were; these commands go to each replica's own address instead.
struct Fleet: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Reset every replica of a fleet, or merge their coverage (see docs/fleet.md).",
        subcommands: [FleetReset.self, FleetCoverage.self])
}
