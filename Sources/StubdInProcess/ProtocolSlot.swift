/// A number written as a type, so each in-process front gets a `URLProtocol` class of its own.
///
/// URLSession makes a protocol's instances itself, from the class in `protocolClasses`: nothing of
/// the configuration that named the class reaches the instance (on Linux not even the
/// configuration's `httpAdditionalHeaders`, measured with Swift 6.3.1). One class shared by every
/// front would have to guess which front a request is for, and tests run in parallel. So each front
/// takes a number and the class `StubURLProtocol<Slot>` spelled with it (`Bit1<Bit0<Bit1<NoBits>>>`
/// is 5): a distinct class per front, made from a runtime value, that finds its front in `SlotTable`
/// by that number. Swift allows no stored static property in a generic class, so the number cannot
/// sit in the class itself.
protocol ProtocolSlot {
    static var number: Int { get }
}

/// The empty number: 0.
enum NoBits: ProtocolSlot {
    static var number: Int { 0 }
}

/// `Higher`'s number with a 0 appended in binary.
enum Bit0<Higher: ProtocolSlot>: ProtocolSlot {
    static var number: Int { Higher.number * 2 }
}

/// `Higher`'s number with a 1 appended in binary.
enum Bit1<Higher: ProtocolSlot>: ProtocolSlot {
    static var number: Int { Higher.number * 2 + 1 }
}

extension NoBits {
    /// The slot type whose `number` is `n` (n ≥ 0), built a bit at a time.
    static func slot(_ n: Int) -> any ProtocolSlot.Type {
        precondition(n >= 0)
        guard n > 0 else { return NoBits.self }
        let higher = slot(n / 2)
        return n % 2 == 0 ? appendingZero(to: higher) : appendingOne(to: higher)
    }

    private static func appendingZero<Higher: ProtocolSlot>(to higher: Higher.Type) -> any ProtocolSlot.Type { Bit0<Higher>.self }
    private static func appendingOne<Higher: ProtocolSlot>(to higher: Higher.Type) -> any ProtocolSlot.Type { Bit1<Higher>.self }
}
