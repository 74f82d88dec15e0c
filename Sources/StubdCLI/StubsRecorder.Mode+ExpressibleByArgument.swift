import ArgumentParser
package import StubdCore
import StubdEngine

/// `--mode new|all` (record, serve --record-missing): `--help` lists the two.
extension StubsRecorder.Mode: ExpressibleByArgument {}
