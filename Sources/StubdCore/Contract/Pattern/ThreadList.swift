import StubdEngine

/// The Pike VM's set of program positions alive at one input position: insertion order kept,
/// membership and clearing in constant time (a sparse set), sized once for the program.
struct ThreadList {
    private var dense: [Int32]
    private var sparse: [Int32]
    private(set) var count = 0

    init(capacity: Int) {
        dense = Array(repeating: 0, count: capacity)
        sparse = Array(repeating: 0, count: capacity)
    }

    func contains(_ pc: Int) -> Bool {
        let i = Int(sparse[pc])
        return i < count && Int(dense[i]) == pc
    }

    /// False when it was there already.
    mutating func insert(_ pc: Int) -> Bool {
        if contains(pc) { return false }
        dense[count] = Int32(pc)
        sparse[pc] = Int32(count)
        count += 1
        return true
    }

    subscript(i: Int) -> Int { Int(dense[i]) }

    mutating func removeAll() { count = 0 }
}
