/// A binary min-heap keyed by time: O(log n) insert and pop, O(1) peek. Entries are never
/// removed from the middle; the owner checks on pop whether an entry is still current.
struct MinHeap<Value: Sendable>: Sendable {
    private var items: [(key: Duration, value: Value)] = []

    init() {}

    var isEmpty: Bool { items.isEmpty }
    var count: Int { items.count }
    var minKey: Duration? { items.first?.key }

    mutating func insert(_ key: Duration, _ value: Value) {
        items.append((key, value))
        var child = items.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard items[child].key < items[parent].key else { break }
            items.swapAt(child, parent)
            child = parent
        }
    }

    /// Removes and returns the smallest entry if its key is `<= limit`.
    mutating func popMin(notAfter limit: Duration) -> (key: Duration, value: Value)? {
        guard let top = items.first, top.key <= limit else { return nil }
        let last = items.removeLast()
        if !items.isEmpty {
            items[0] = last
            var parent = 0
            while true {
                let left = 2 * parent + 1, right = left + 1
                var smallest = parent
                if left < items.count, items[left].key < items[smallest].key { smallest = left }
                if right < items.count, items[right].key < items[smallest].key { smallest = right }
                if smallest == parent { break }
                items.swapAt(parent, smallest)
                parent = smallest
            }
        }
        return top
    }
}
