import StubdEngine

/// Searches a string for a pattern without backtracking (Thompson's construction as Pike ran it):
/// every way the pattern could be matching advances together, one input scalar at a time, so the
/// time is at most the input's length times the program's, whatever the pattern: `(.*a){20}` over
/// sixty `a`s costs what `a` over sixty `a`s costs, times twenty.
struct PikeVM {
    let program: PatternProgram
    /// Thread steps past which the search gives up (nil): linear is not free when both the input
    /// and the program are long.
    let budget: Int

    /// Whether the pattern matches somewhere in `input`; nil when the budget ran out first.
    func search(_ input: String.UnicodeScalarView) -> Bool? {
        let instructions = program.instructions
        // What consuming the last scalar led to, then everything reachable from there without
        // consuming (assertions need the scalars on both sides, so this waits for the next one).
        var pending = ThreadList(capacity: instructions.count)
        var alive = ThreadList(capacity: instructions.count)
        var stack: [Int] = []
        var steps = 0
        var iterator = input.makeIterator()
        var previous: UInt32?
        var scalar = iterator.next()?.value
        while true {
            alive.removeAll()
            for i in 0..<pending.count {
                if close(pending[i], into: &alive, previous, scalar, &stack) { return true }
            }
            // A match may start here too, unless the pattern is anchored to the string's start.
            if previous == nil || !program.anchoredAtStart {
                if close(0, into: &alive, previous, scalar, &stack) { return true }
            }
            guard let c = scalar, alive.count > 0 || !program.anchoredAtStart else { return false }
            steps += alive.count + 1
            if steps > budget { return nil }
            pending.removeAll()
            for i in 0..<alive.count {
                let pc = alive[i]
                if case .consume(let set) = instructions[pc], program.sets[set].contains(c) { _ = pending.insert(pc + 1) }
            }
            previous = c
            scalar = iterator.next()?.value
        }
    }

    /// Adds `pc` and everything it reaches without consuming to `list`; true when that reaches a match.
    private func close(_ pc: Int, into list: inout ThreadList, _ previous: UInt32?, _ next: UInt32?, _ stack: inout [Int]) -> Bool {
        stack.append(pc)
        while let pc = stack.popLast() {
            guard list.insert(pc) else { continue }
            switch program.instructions[pc] {
            case .consume: break
            case .match: stack.removeAll(); return true
            case .jump(let target): stack.append(target)
            case .split(let first, let second): stack.append(second); stack.append(first)
            case .assert(let assertion): if assertion.holds(previous: previous, next: next) { stack.append(pc + 1) }
            case .save, .loopEnter, .loopCheck: stack.append(pc + 1)
            case .backreference, .look: break // never in a program the Pike VM runs (see `SchemaPattern`)
            }
        }
        return false
    }
}
