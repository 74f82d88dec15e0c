/// A socket's scripted actions not yet done, earliest first (ties in the order scheduled): a binary
/// heap, so scheduling and taking the next cost by the log of what is pending. The array it replaced
/// was sorted on every message: a reply that waits (`after: 1h`) made 25k/50k/100k client messages
/// cost 0.5/2.1/9.5 s of CPU. Socket-free.
package struct WebSocketTimeline<Action> {
    private var heap: [(due: Double, order: Int, action: Action)] = []
    private var scheduled = 0

    package init() {}

    package var count: Int { heap.count }
    package var isEmpty: Bool { heap.isEmpty }
    /// When the next action is due.
    package var nextDue: Double? { heap.first?.due }

    package mutating func schedule(_ action: Action, due: Double) {
        scheduled += 1
        heap.append((due, scheduled, action))
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard Self.precedes(heap[child], heap[parent]) else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    /// The earliest action if it is due by `time`, taken off the timeline.
    package mutating func takeDue(by time: Double) -> Action? {
        guard let first = heap.first, first.due <= time else { return nil }
        let last = heap.removeLast()
        guard !heap.isEmpty else { return first.action }
        heap[0] = last
        var parent = 0
        while true {
            let left = 2 * parent + 1, right = left + 1
            var earliest = parent
            if left < heap.count, Self.precedes(heap[left], heap[earliest]) { earliest = left }
            if right < heap.count, Self.precedes(heap[right], heap[earliest]) { earliest = right }
            guard earliest != parent else { break }
            heap.swapAt(parent, earliest)
            parent = earliest
        }
        return first.action
    }

    package mutating func removeAll() { heap = [] }

    private static func precedes(_ a: (due: Double, order: Int, action: Action), _ b: (due: Double, order: Int, action: Action)) -> Bool {
        a.due < b.due || (a.due == b.due && a.order < b.order)
    }
}
