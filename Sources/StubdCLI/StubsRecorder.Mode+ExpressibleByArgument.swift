import ArgumentParser
package import StubdCore

/// `--mode new|all` (record, serve --record-missing): `--help` lists the two.
extension StubsRecorder.Mode: ExpressibleByArgument {}
