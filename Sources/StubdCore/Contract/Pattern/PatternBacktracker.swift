import StubdEngine

/// Matches what only a backtracker can (back-references, lookarounds), trying one way at a time
/// with an explicit stack, and giving up after `budget` steps: some inputs take such patterns
/// exponential time, and a request must never hold a worker for that. The answer is then nil,
/// never a guess.
struct PatternBacktracker {
    let program: PatternProgram
    let captureCount: Int
    private var steps = 0
    private let budget: Int

    init(program: PatternProgram, captureCount: Int, budget: Int) {
        self.program = program
        self.captureCount = captureCount
        self.budget = budget
    }

    /// What to undo, or try next, when a way fails.
    private enum Entry {
        case branch(pc: Int, position: Int)
        case slot(Int, Int)
        case register(Int, Int)
    }

    /// Whether the pattern matches somewhere in `input`; nil when the budget ran out first.
    mutating func search(_ input: [UInt32]) -> Bool? {
        var slots = Array(repeating: -1, count: 2 * (captureCount + 1))
        let last = program.anchoredAtStart ? 0 : input.count
        for start in 0...last {
            for i in slots.indices { slots[i] = -1 }
            guard let matched = run(program, input, from: start, endingAt: nil, &slots) else { return nil }
            if matched { return true }
        }
        return false
    }

    /// One anchored attempt of `program` at `start`; `endingAt`: the match must end there (lookbehind).
    private mutating func run(_ program: PatternProgram, _ input: [UInt32], from start: Int, endingAt end: Int?,
                              _ slots: inout [Int]) -> Bool? {
        var registers = Array(repeating: -1, count: program.loopRegisters)
        var stack: [Entry] = []
        var pc = 0
        var position = start
        while true {
            steps += 1
            if steps > budget { return nil }
            var failed = false
            switch program.instructions[pc] {
            case .consume(let set):
                if position < input.count, program.sets[set].contains(input[position]) { position += 1; pc += 1 } else { failed = true }
            case .split(let first, let second):
                stack.append(.branch(pc: second, position: position))
                pc = first
            case .jump(let target):
                pc = target
            case .assert(let assertion):
                let previous = position > 0 ? input[position - 1] : nil
                let next = position < input.count ? input[position] : nil
                if assertion.holds(previous: previous, next: next) { pc += 1 } else { failed = true }
            case .save(let slot):
                stack.append(.slot(slot, slots[slot]))
                slots[slot] = position
                pc += 1
            case .loopEnter(let register):
                stack.append(.register(register, registers[register]))
                registers[register] = position
                pc += 1
            case .loopCheck(let register):
                if registers[register] == position { failed = true } else { pc += 1 }
            case .backreference(let group):
                let (from, to) = (slots[2 * group], slots[2 * group + 1])
                // A group that took no part matches the empty string.
                if from < 0 || to < from { pc += 1; break }
                let length = to - from
                if position + length <= input.count, input[from..<to] == input[position..<position + length] {
                    position += length
                    pc += 1
                } else {
                    failed = true
                }
            case .look(let index, let behind, let negated):
                let body = program.lookarounds[index]
                var inner = slots
                var found = false
                if behind {
                    // The body must end here; tried from the nearest start back.
                    for from in stride(from: position, through: 0, by: -1) {
                        guard let matched = run(body, input, from: from, endingAt: position, &inner) else { return nil }
                        if matched { found = true; break }
                    }
                } else {
                    guard let matched = run(body, input, from: position, endingAt: nil, &inner) else { return nil }
                    found = matched
                }
                if found != negated {
                    // A positive lookaround's captures stand (back-references may use them).
                    if found, !negated {
                        for i in slots.indices where slots[i] != inner[i] {
                            stack.append(.slot(i, slots[i]))
                            slots[i] = inner[i]
                        }
                    }
                    pc += 1
                } else {
                    failed = true
                }
            case .match:
                if end == nil || end == position { return true }
                failed = true
            }
            guard failed else { continue }
            var resumed = false
            while let entry = stack.popLast() {
                switch entry {
                case .slot(let slot, let old): slots[slot] = old
                case .register(let register, let old): registers[register] = old
                case .branch(let target, let at):
                    pc = target
                    position = at
                    resumed = true
                }
                if resumed { break }
            }
            if !resumed { return false }
        }
    }
}
