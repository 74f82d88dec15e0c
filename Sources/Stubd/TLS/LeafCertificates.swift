import CGnuTLS
import Foundation
import StubdCore
import StubdEngine
import StubdProtocol

/// The leaf certificates one server presents, issued from the local CA on demand, one per name a
/// client asks for (SNI), and kept as GnuTLS objects for the life of the server. libmicrohttpd's TLS
/// asks for one in every handshake through `certificateCallback`.
///
/// A client that asks for no name (`https://127.0.0.1:PORT`) or for a name stubd does not serve gets
/// the default leaf (localhost, this machine's name, 127.0.0.1, ::1): a client checking names then
/// refuses it, saying which name it wanted, and the log says how to serve that host.
final class LeafCertificates: @unchecked Sendable {
    /// One leaf as GnuTLS takes it: the chain (leaf, then the CA) and the key.
    struct Leaf {
        let chain: UnsafeMutablePointer<gnutls_pcert_st>
        let chainLength: UInt32
        let key: gnutls_privkey_t
    }

    private let authority: @Sendable () throws(TLSSetupError) -> CertificateAuthority
    /// Whether the server answers a host (its folders, `--as-host`, its own names).
    private let serves: @Sendable (String) -> Bool
    private let notice: (@Sendable (String) -> Void)?
    private let state = Locked<(ca: CertificateAuthority?, leaves: [String: Leaf], told: Set<String>)>((nil, [:], []))
    /// Names past which a new one gets the default leaf, so a client cycling SNI names cannot grow memory.
    static let maxLeaves = 1000

    /// Worked out once: `ProcessInfo.hostName` resolves the name, too slow for every handshake.
    static let defaultNames: [String] = {
        var names = ["localhost", "127.0.0.1", "::1"]
        let machine = ProcessInfo.processInfo.hostName.lowercased()
        if !machine.isEmpty, !names.contains(machine), IPAddressBytes(machine) == nil { names.insert(machine, at: 1) }
        return names
    }()

    init(authority: @escaping @Sendable () throws(TLSSetupError) -> CertificateAuthority,
         serves: @escaping @Sendable (String) -> Bool, notice: (@Sendable (String) -> Void)?) {
        self.authority = authority
        self.serves = serves
        self.notice = notice
    }

    /// The CA, loaded (or made) on first use.
    func certificateAuthority() throws(TLSSetupError) -> CertificateAuthority {
        if let ca = state.withLock({ $0.ca }) { return ca }
        let ca = try authority()
        state.withLock { $0.ca = $0.ca ?? ca }
        return ca
    }

    /// The leaf for `serverName` (nil: the client sent none), issued now if this is its first handshake.
    func leaf(for serverName: String?) -> Leaf? {
        let asked = serverName.map { HostScope.normalize($0) } ?? ""
        let known = !asked.isEmpty && serves(asked)
        // stubd's own names share the default leaf; any other host it serves gets a leaf of its own.
        let served = known && !LeafCertificates.defaultNames.contains(asked)
        let key = served ? asked : ""
        if !known, !asked.isEmpty, IPAddressBytes(asked) == nil {
            let first = state.withLock { $0.told.count < 100 && $0.told.insert(asked).inserted }
            if first {
                notice?("TLS: a client asked for \(asked), which this Stubs folder does not serve; it got the certificate for localhost and will refuse it. Add a folder named \(asked) at the top of the Stubs folder, or start stubd with --as-host \(asked)")
            }
        }
        if let leaf = state.withLock({ $0.leaves[key] }) { return leaf }
        do {
            let ca = try certificateAuthority()
            if state.withLock({ $0.leaves.count >= LeafCertificates.maxLeaves }) { return key.isEmpty ? nil : leaf(for: nil) }
            let issued = try ca.issue(for: served ? [asked] : LeafCertificates.defaultNames)
            guard let made = LeafCertificates.gnutlsLeaf(issued.certificateDER, issued.keyPEM, ca: ca) else {
                notice?("TLS: GnuTLS could not load the certificate issued for \(key.isEmpty ? "localhost" : key)")
                return nil
            }
            return state.withLock { state in
                if let raced = state.leaves[key] { LeafCertificates.free(made); return raced }
                state.leaves[key] = made
                return made
            }
        } catch {
            notice?("TLS: \(error.description)")
            return nil
        }
    }

    /// Issues the default leaf now, so a CA that cannot be made or read stops the server at start.
    func prepare() throws(TLSSetupError) {
        _ = try certificateAuthority()
        guard leaf(for: nil) != nil else { throw TLSSetupError("cannot load the certificate issued for localhost into GnuTLS") }
    }

    private static func gnutlsLeaf(_ der: [UInt8], _ keyPEM: String, ca: CertificateAuthority) -> Leaf? {
        guard let caDER = try? ca.certificateDER else { return nil }
        let chain = UnsafeMutablePointer<gnutls_pcert_st>.allocate(capacity: 2)
        var ok = der.withUnsafeBufferPointer { bytes in
            var datum = gnutls_datum_t(data: UnsafeMutablePointer(mutating: bytes.baseAddress), size: UInt32(bytes.count))
            return gnutls_pcert_import_x509_raw(&chain[0], &datum, GNUTLS_X509_FMT_DER, 0) == 0
        }
        guard ok else { chain.deallocate(); return nil }
        ok = caDER.withUnsafeBufferPointer { bytes in
            var datum = gnutls_datum_t(data: UnsafeMutablePointer(mutating: bytes.baseAddress), size: UInt32(bytes.count))
            return gnutls_pcert_import_x509_raw(&chain[1], &datum, GNUTLS_X509_FMT_DER, 0) == 0
        }
        guard ok else { gnutls_pcert_deinit(&chain[0]); chain.deallocate(); return nil }
        var key: gnutls_privkey_t?
        let loaded = gnutls_privkey_init(&key) == 0 && keyPEM.utf8CString.withUnsafeBufferPointer { text in
            var datum = gnutls_datum_t(data: UnsafeMutableRawPointer(mutating: text.baseAddress!).assumingMemoryBound(to: UInt8.self),
                                       size: UInt32(text.count - 1))
            return gnutls_privkey_import_x509_raw(key, &datum, GNUTLS_X509_FMT_PEM, nil, 0) == 0
        }
        guard loaded, let key else {
            if let key { gnutls_privkey_deinit(key) }
            gnutls_pcert_deinit(&chain[0]); gnutls_pcert_deinit(&chain[1]); chain.deallocate()
            return nil
        }
        return Leaf(chain: chain, chainLength: 2, key: key)
    }

    private static func free(_ leaf: Leaf) {
        for i in 0..<Int(leaf.chainLength) { gnutls_pcert_deinit(&leaf.chain[i]) }
        leaf.chain.deallocate()
        gnutls_privkey_deinit(leaf.key)
    }

    /// Frees every leaf. Only after the daemons that present them have stopped.
    func releaseAll() {
        let leaves = state.withLock { state in
            defer { state.leaves = [:] }
            return Array(state.leaves.values)
        }
        for leaf in leaves { LeafCertificates.free(leaf) }
    }

    // MARK: The callback libmicrohttpd's TLS makes in every handshake

    /// Which leaves each TLS daemon presents, by daemon: the callback gets only GnuTLS's session,
    /// whose pointer libmicrohttpd sets to the connection.
    private static let byDaemon = Locked<[Int: LeafCertificates]>([:])

    static func register(_ leaves: LeafCertificates, for daemon: Daemon) {
        byDaemon.withLock { $0[Int(bitPattern: daemon.address)] = leaves }
    }

    static func unregister(_ daemon: Daemon) {
        _ = byDaemon.withLock { $0.removeValue(forKey: Int(bitPattern: daemon.address)) }
    }

    /// Picks the leaf for the name the client sent (SNI); -1 fails the handshake.
    /// GnuTLS's `gnutls_certificate_retrieve_function2`, spelled as a C function pointer: Swift imports
    /// the typedef (a function type, not a pointer) as a Swift closure type, twice a pointer's size.
    typealias CertificateCallback = @convention(c) (
        OpaquePointer?, UnsafePointer<gnutls_datum_t>?, Int32, UnsafePointer<gnutls_pk_algorithm_t>?, Int32,
        UnsafeMutablePointer<UnsafeMutablePointer<gnutls_pcert_st>?>?, UnsafeMutablePointer<UInt32>?,
        UnsafeMutablePointer<OpaquePointer?>?) -> Int32

    static let certificateCallback: CertificateCallback = { session, _, _, _, _, chain, chainLength, key in
        guard let session, let chain, let chainLength, let key,
              let connection = gnutls_session_get_ptr(session),
              case let daemon = Connection(OpaquePointer(connection)).daemonAddress, daemon != 0,
              let leaves = byDaemon.withLock({ $0[Int(bitPattern: daemon)] }) else { return -1 }
        var name = [CChar](repeating: 0, count: 256)
        var size = name.count
        var type: UInt32 = 0
        let asked = gnutls_server_name_get(session, &name, &size, &type, 0) == 0 && type == GNUTLS_NAME_DNS.rawValue
            ? name.withUnsafeBufferPointer { String(cString: $0.baseAddress!) } : nil
        guard let leaf = leaves.leaf(for: asked) else { return -1 }
        chain.pointee = leaf.chain
        chainLength.pointee = leaf.chainLength
        key.pointee = leaf.key
        return 0
    }
}
