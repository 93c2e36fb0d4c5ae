/// A FIFO ring buffer with O(1) `append`, `prepend` and `popFirst` (the toolchain has no
/// `Deque`, and the package takes no outside dependencies).
///
/// Capacity is a power of two so indices wrap with a mask. Popped slots are set to `nil` so the
/// buffer never keeps an element alive.
package struct Deque<Element> {
    private var storage: [Element?] = []
    private var head = 0
    package private(set) var count = 0

    package init() {}

    package var isEmpty: Bool { count == 0 }

    package var first: Element? { count == 0 ? nil : storage[head] }

    package mutating func append(_ element: Element) {
        if count == storage.count { grow() }
        storage[(head &+ count) & (storage.count &- 1)] = element
        count &+= 1
    }

    package mutating func prepend(_ element: Element) {
        if count == storage.count { grow() }
        head = (head &- 1) & (storage.count &- 1)
        storage[head] = element
        count &+= 1
    }

    package mutating func popFirst() -> Element? {
        guard count > 0 else { return nil }
        let element = storage[head]
        storage[head] = nil
        head = (head &+ 1) & (storage.count &- 1)
        count &-= 1
        return element
    }

    /// Removes and returns the first element matching `predicate`, keeping the others in
    /// order (O(n)).
    @discardableResult
    package mutating func removeFirst(where predicate: (Element) -> Bool) -> Element? {
        guard let offset = (0..<count).first(where: { predicate(storage[(head &+ $0) & (storage.count &- 1)]!) }) else {
            return nil
        }
        let mask = storage.count &- 1
        let removed = storage[(head &+ offset) & mask]
        // Shift the elements before it one step back, then drop the front slot.
        for i in stride(from: offset, to: 0, by: -1) {
            storage[(head &+ i) & mask] = storage[(head &+ i &- 1) & mask]
        }
        storage[head] = nil
        head = (head &+ 1) & mask
        count &-= 1
        return removed
    }

    /// The elements front to back (for tests and for status views; O(n)).
    package var elements: [Element] {
        (0..<count).map { storage[(head &+ $0) & (storage.count &- 1)]! }
    }

    private mutating func grow() {
        let newCapacity = Swift.max(8, storage.count * 2)
        var grown = [Element?](repeating: nil, count: newCapacity)
        for i in 0..<count { grown[i] = storage[(head + i) & (storage.count - 1)] }
        storage = grown
        head = 0
    }
}

extension Deque: Sendable where Element: Sendable {}
