import ArgumentParser
import Foundation
import Stubd

/// `--ca-dir`, shared by `serve` and `ca`: where the local certificate authority lives.
struct CAOption: ParsableArguments {
    @Option(name: .customLong("ca-dir"), help: ArgumentHelp("The local CA's folder, made on first use (env STUBD_CA_DIR; default ~/.stubd/ca).", valueName: "dir"))
    var caDir: String?

    var directory: URL { caDir.map { URL(fileURLWithPath: $0) } ?? CertificateAuthority.defaultDirectory }
}
