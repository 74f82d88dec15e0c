import StubdEngine

/// A pattern compiled to instructions: counted repetitions are written out (`a{3}` is `aaa`), so
/// the program is as long as the pattern means, and refused past `maxInstructions`.
struct PatternProgram: Sendable {
    private(set) var instructions: [PatternInstruction] = []
    private(set) var sets: [ScalarSet] = []
    /// The bodies of lookarounds, each its own program.
    private(set) var lookarounds: [PatternProgram] = []
    private(set) var loopRegisters = 0
    /// Whether every match must start at the string's start (`^…`): the search need not try later starts.
    private(set) var anchoredAtStart = false

    /// The most instructions a pattern may compile to: `(a{1000}){1000}` would be a million.
    static let maxInstructions = 100_000

    init(_ node: PatternNode) throws(PatternSyntaxError) {
        var budget = PatternProgram.maxInstructions
        try self.init(node, budget: &budget)
    }

    private init(_ node: PatternNode, budget: inout Int) throws(PatternSyntaxError) {
        try emit(node, &budget)
        try append(.match, &budget)
        anchoredAtStart = PatternProgram.startsWithStart(node)
    }

    private static func startsWithStart(_ node: PatternNode) -> Bool {
        switch node {
        case .assertion(.start): return true
        case .concatenation(let nodes): return nodes.first.map(startsWithStart) ?? false
        case .group(let inner, _): return startsWithStart(inner)
        case .alternation(let nodes): return nodes.allSatisfy(startsWithStart)
        default: return false
        }
    }

    private mutating func append(_ instruction: PatternInstruction, _ budget: inout Int) throws(PatternSyntaxError) {
        budget -= 1
        guard budget >= 0 else {
            throw PatternSyntaxError(offset: 0, problem: "the pattern is too large: its repetitions write out to more than \(PatternProgram.maxInstructions) steps")
        }
        instructions.append(instruction)
    }

    private mutating func emit(_ node: PatternNode, _ budget: inout Int) throws(PatternSyntaxError) {
        switch node {
        case .empty:
            break
        case .set(let set):
            if let index = sets.firstIndex(of: set) {
                try append(.consume(index), &budget)
            } else {
                sets.append(set)
                try append(.consume(sets.count - 1), &budget)
            }
        case .concatenation(let nodes):
            for n in nodes { try emit(n, &budget) }
        case .alternation(let nodes):
            var jumps: [Int] = []
            for (i, n) in nodes.enumerated() {
                if i < nodes.count - 1 {
                    let split = instructions.count
                    try append(.split(split + 1, -1), &budget)
                    try emit(n, &budget)
                    jumps.append(instructions.count)
                    try append(.jump(-1), &budget)
                    instructions[split] = .split(split + 1, instructions.count)
                } else {
                    try emit(n, &budget)
                }
            }
            for j in jumps { instructions[j] = .jump(instructions.count) }
        case .group(let inner, let capture):
            if let capture { try append(.save(2 * capture), &budget) }
            try emit(inner, &budget)
            if let capture { try append(.save(2 * capture + 1), &budget) }
        case .repetition(let inner, let min, let max, let greedy):
            for _ in 0..<min { try emit(inner, &budget) }
            if let max {
                var exits: [Int] = []
                for _ in min..<max {
                    exits.append(instructions.count)
                    try append(.split(-1, -1), &budget)
                    try emit(inner, &budget)
                }
                for e in exits { instructions[e] = PatternProgram.split(e + 1, instructions.count, greedy) }
            } else {
                let register = loopRegisters
                loopRegisters += 1
                let top = instructions.count
                try append(.split(-1, -1), &budget)
                try append(.loopEnter(register), &budget)
                try emit(inner, &budget)
                try append(.loopCheck(register), &budget)
                try append(.jump(top), &budget)
                instructions[top] = PatternProgram.split(top + 1, instructions.count, greedy)
            }
        case .assertion(let assertion):
            try append(.assert(assertion), &budget)
        case .backreference(let n):
            try append(.backreference(n), &budget)
        case .lookaround(let inner, let behind, let negated):
            let body = try PatternProgram(inner, budget: &budget)
            lookarounds.append(body)
            try append(.look(lookarounds.count - 1, behind: behind, negated: negated), &budget)
        }
    }

    /// Greedy: into the body first; lazy: past it first.
    private static func split(_ body: Int, _ out: Int, _ greedy: Bool) -> PatternInstruction {
        greedy ? .split(body, out) : .split(out, body)
    }
}
