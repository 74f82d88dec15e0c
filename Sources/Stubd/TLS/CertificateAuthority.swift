public import Foundation
// The TLS trait's one seam: with it, the CA is made and signs leaves with swift-certificates and
// swift-crypto; without it (a test package's dependency declared with `traits: []`) neither is built,
// and everything that needs the CA (`stubd ca`, `serve --tls`, --tls-port, a CONNECT) fails saying so.
#if TLS
import Crypto
import SwiftASN1
public import X509

/// stubd's own certificate authority: a key and a self-signed certificate in a folder of the user's
/// (`~/.stubd/ca`, or `--ca-dir`), made on first use. Clients that trust its certificate trust the
/// leaves stubd issues from it for `localhost`, loopback addresses and the hosts a Stubs folder
/// serves. Built with swift-certificates and swift-crypto, not by running openssl.
public struct CertificateAuthority: Sendable {
    /// The folder holding `ca.pem` and `ca-key.pem`.
    public let directory: URL
    public let certificate: Certificate
    let key: P256.Signing.PrivateKey

    /// The certificate as DER bytes, the CA's link of the chain a leaf is presented with.
    var certificateDER: [UInt8] {
        get throws(TLSSetupError) {
            do { return try certificate.serializeAsPEM().derBytes } catch {
                throw TLSSetupError("cannot write the CA certificate as DER: \(error)")
            }
        }
    }

    /// The certificate as PEM text (`stubd ca export`).
    public var certificatePEM: String {
        get throws(TLSSetupError) {
            do { return try certificate.serializeAsPEM().pemString } catch {
                throw TLSSetupError("cannot write the CA certificate as PEM: \(error)")
            }
        }
    }

    /// Loads the CA in `directory`, making one there first if it has none.
    public static func loadOrCreate(in directory: URL) throws(TLSSetupError) -> CertificateAuthority {
        if let existing = try load(from: directory) { return existing }
        let made = try make(in: directory)
        do {
            try write(made, replacing: false)
        } catch {
            // Another stubd made one at the same moment: theirs is the one on disk, and the one clients trust.
            if let theirs = try load(from: directory) { return theirs }
            throw error
        }
        return made
    }

    /// Makes a new key and certificate and puts them in place of the current ones (`stubd ca renew`).
    /// Leaves issued from the old key stop being trusted once clients trust only the new certificate.
    public static func renew(in directory: URL) throws(TLSSetupError) -> CertificateAuthority {
        let made = try make(in: directory)
        try write(made, replacing: true)
        return made
    }

    /// The CA in `directory`, or nil when there is none yet.
    static func load(from directory: URL) throws(TLSSetupError) -> CertificateAuthority? {
        let certURL = directory.appendingPathComponent("ca.pem"), keyURL = directory.appendingPathComponent("ca-key.pem")
        guard FileManager.default.fileExists(atPath: certURL.path), FileManager.default.fileExists(atPath: keyURL.path) else { return nil }
        do {
            let certificate = try Certificate(pemEncoded: String(contentsOf: certURL, encoding: .utf8))
            let key = try P256.Signing.PrivateKey(pemRepresentation: String(contentsOf: keyURL, encoding: .utf8))
            return CertificateAuthority(directory: directory, certificate: certificate, key: key)
        } catch {
            throw TLSSetupError("cannot read the CA in \(directory.path) (\(error)); remove the folder or run `stubd ca renew --ca-dir \(directory.path)` to make a new one")
        }
    }

    private static func make(in directory: URL) throws(TLSSetupError) -> CertificateAuthority {
        let key = P256.Signing.PrivateKey()
        let now = Date()
        do {
            let name = try DistinguishedName {
                OrganizationName("stubd")
                CommonName("stubd local CA \(ProcessInfo.processInfo.hostName) \(Int(now.timeIntervalSince1970))")
            }
            let publicKey = Certificate.PublicKey(key.publicKey)
            let certificate = try Certificate(
                version: .v3, serialNumber: .init(), publicKey: publicKey,
                notValidBefore: now.addingTimeInterval(-86_400), notValidAfter: now.addingTimeInterval(10 * 365 * 86_400),
                issuer: name, subject: name, signatureAlgorithm: .ecdsaWithSHA256,
                extensions: try Certificate.Extensions {
                    Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
                    Critical(KeyUsage(keyCertSign: true, cRLSign: true))
                    SubjectKeyIdentifier(hash: publicKey)
                },
                issuerPrivateKey: .init(key))
            return CertificateAuthority(directory: directory, certificate: certificate, key: key)
        } catch {
            throw TLSSetupError("cannot make a CA certificate: \(error)")
        }
    }

    /// Writes key (0600) and certificate into the folder (0700), each through a temporary file renamed
    /// into place, so a reader sees the old pair or the new one. Without `replacing`, an existing key wins.
    private static func write(_ ca: CertificateAuthority, replacing: Bool) throws(TLSSetupError) {
        let fm = FileManager.default
        do {
            try fm.createDirectory(at: ca.directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            try fm.setAttributes([.posixPermissions: 0o700], ofItemAtPath: ca.directory.path)
        } catch {
            throw TLSSetupError("cannot create the CA folder \(ca.directory.path): \(error.localizedDescription); pass --ca-dir with a folder you can write")
        }
        let pem: String
        do { pem = try ca.certificate.serializeAsPEM().pemString } catch { throw TLSSetupError("cannot write the CA certificate: \(error)") }
        let tag = "\(getpid())-\(UInt32.random(in: 0 ... .max))"
        let tmpKey = ca.directory.appendingPathComponent(".ca-key.pem.\(tag)")
        let tmpCert = ca.directory.appendingPathComponent(".ca.pem.\(tag)")
        defer { try? fm.removeItem(at: tmpKey); try? fm.removeItem(at: tmpCert) }
        guard fm.createFile(atPath: tmpKey.path, contents: Data(ca.key.pemRepresentation.utf8), attributes: [.posixPermissions: 0o600]),
              fm.createFile(atPath: tmpCert.path, contents: Data(pem.utf8), attributes: [.posixPermissions: 0o644]) else {
            throw TLSSetupError("cannot write into the CA folder \(ca.directory.path); pass --ca-dir with a folder you can write")
        }
        if replacing {
            guard rename(tmpKey.path, ca.keyURL.path) == 0, rename(tmpCert.path, ca.certificateURL.path) == 0 else {
                throw TLSSetupError("cannot replace the CA in \(ca.directory.path): \(String(cString: strerror(errno)))")
            }
        } else {
            // link() fails if the key exists: the first stubd to get there makes the CA.
            guard link(tmpKey.path, ca.keyURL.path) == 0 else {
                throw TLSSetupError("cannot create the CA key in \(ca.directory.path): \(String(cString: strerror(errno)))")
            }
            guard rename(tmpCert.path, ca.certificateURL.path) == 0 else {
                throw TLSSetupError("cannot write the CA certificate in \(ca.directory.path): \(String(cString: strerror(errno)))")
            }
        }
    }

    /// A leaf certificate for `names` (host names and IP addresses), valid for a year, and its key.
    func issue(for names: [String]) throws(TLSSetupError) -> (certificateDER: [UInt8], keyPEM: String) {
        let key = P256.Signing.PrivateKey()
        let now = Date()
        do {
            let subject = try DistinguishedName { OrganizationName("stubd"); CommonName(names.first ?? "stubd") }
            var alternatives: [GeneralName] = []
            for name in names {
                if let address = IPAddressBytes(name) {
                    alternatives.append(.ipAddress(ASN1OctetString(contentBytes: ArraySlice(address.bytes))))
                } else {
                    alternatives.append(.dnsName(name))
                }
            }
            let issuerKeyID = try certificate.extensions.subjectKeyIdentifier?.keyIdentifier
            let leaf = try Certificate(
                version: .v3, serialNumber: .init(), publicKey: .init(key.publicKey),
                // A year at most: Apple's platforms refuse longer-lived server certificates.
                notValidBefore: now.addingTimeInterval(-86_400), notValidAfter: now.addingTimeInterval(365 * 86_400),
                issuer: certificate.subject, subject: subject, signatureAlgorithm: .ecdsaWithSHA256,
                extensions: try Certificate.Extensions {
                    Critical(BasicConstraints.notCertificateAuthority)
                    Critical(KeyUsage(digitalSignature: true))
                    try ExtendedKeyUsage([.serverAuth])
                    SubjectAlternativeNames(alternatives)
                    AuthorityKeyIdentifier(keyIdentifier: issuerKeyID)
                },
                issuerPrivateKey: .init(self.key))
            var serializer = DER.Serializer()
            try serializer.serialize(leaf)
            return (serializer.serializedBytes, key.pemRepresentation)
        } catch {
            throw TLSSetupError("cannot issue a certificate for \(names.joined(separator: ", ")): \(error)")
        }
    }
}
#else
/// This build of stubd was made without the TLS trait: there is no CA to load, make or sign with, and
/// each way to one throws the error that says how to get a build that has it.
public struct CertificateAuthority: Sendable {
    /// The folder the CA would be in.
    public let directory: URL

    static let missing = TLSSetupError(
        "this build of stubd has no TLS: enable the TLS trait (`swift run stubd` without --disable-default-traits; "
        + "as a dependency, without `traits: []`, or with traits: [\"TLS\"])")

    public var certificatePEM: String { get throws(TLSSetupError) { throw Self.missing } }
    var certificateDER: [UInt8] { get throws(TLSSetupError) { throw Self.missing } }
    public static func loadOrCreate(in directory: URL) throws(TLSSetupError) -> CertificateAuthority { throw missing }
    public static func renew(in directory: URL) throws(TLSSetupError) -> CertificateAuthority { throw missing }
    static func load(from directory: URL) throws(TLSSetupError) -> CertificateAuthority? { throw missing }
    func issue(for names: [String]) throws(TLSSetupError) -> (certificateDER: [UInt8], keyPEM: String) { throw Self.missing }
}
#endif

extension CertificateAuthority {
    /// Where the CA lives when no `--ca-dir` is given: `STUBD_CA_DIR`, else `~/.stubd/ca`.
    public static var defaultDirectory: URL {
        if let dir = ProcessInfo.processInfo.environment["STUBD_CA_DIR"], !dir.isEmpty { return URL(fileURLWithPath: dir) }
        return FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".stubd/ca")
    }

    /// The CA certificate, PEM: what a client is told to trust (`stubd ca path`).
    public var certificateURL: URL { directory.appendingPathComponent("ca.pem") }
    var keyURL: URL { directory.appendingPathComponent("ca-key.pem") }
}
