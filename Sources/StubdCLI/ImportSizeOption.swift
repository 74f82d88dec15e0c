import ArgumentParser
import StubdCore

/// `--max-size` of every `stubd import`: each importer reads its files whole (a HAR, a collection,
/// a mapping and its body files), so one cap, refused by a file's size before a byte is read.
struct ImportSizeOption: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Refuse an input file (a HAR, a collection, a mapping or body file) larger than this many MiB: each is read whole.", valueName: "MiB"))
    var maxSize: Int = ImportFile.defaultMaxBytes >> 20

    var bytes: Int { maxSize << 20 }

    func validate() throws {
        guard maxSize > 0 else { throw ValidationError("--max-size must be more than 0 MiB") }
    }
}
