/// A binary min-heap: O(log n) insert and pop, O(1) peek at the smallest element. Ties pop in
/// no particular order; give elements a tie-breaker (a sequence number) when order matters.
/// The scheduler's job deadlines and the socket loop's timers both use it.
package struct Heap<Element: Comparable> {
    private var items: [Element] = []

    package init() {}

    package var isEmpty: Bool { items.isEmpty }
    package var count: Int { items.count }
    /// The smallest element, not removed.
    package var min: Element? { items.first }

    package mutating func insert(_ element: Element) {
        items.append(element)
        var child = items.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard items[child] < items[parent] else { break }
            items.swapAt(child, parent)
            child = parent
        }
    }

    /// Removes and returns the smallest element.
    @discardableResult
    package mutating func popMin() -> Element? {
        guard !items.isEmpty else { return nil }
        items.swapAt(0, items.count - 1)
        let top = items.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1, right = left + 1
            var smallest = parent
            if left < items.count, items[left] < items[smallest] { smallest = left }
            if right < items.count, items[right] < items[smallest] { smallest = right }
            if smallest == parent { break }
            items.swapAt(parent, smallest)
            parent = smallest
        }
        return top
    }

    /// Removes and returns the smallest element when `isDue` says it is due.
    package mutating func popMin(if isDue: (Element) -> Bool) -> Element? {
        guard let top = items.first, isDue(top) else { return nil }
        return popMin()
    }
}

extension Heap: Sendable where Element: Sendable {}
