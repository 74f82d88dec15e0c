import ArgumentParser
import StubdCore
import StubdEngine

/// `--max-size` of every `stubd import`: the importers read their files whole (a collection, a
/// mapping and its body files), so one cap, refused by a file's size before a byte is read; a HAR
/// is read an entry at a time, so for a HAR it caps one entry.
struct ImportSizeOption: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Refuse an input file (a collection, a mapping or body file) larger than this many MiB: each is read whole. A HAR is read an entry at a time: this caps one entry.", valueName: "MiB"))
    var maxSize: Int = ImportFile.defaultMaxBytes >> 20

    var bytes: Int { maxSize << 20 }

    func validate() throws {
        guard maxSize > 0 else { throw ValidationError("--max-size must be more than 0 MiB") }
    }
}
