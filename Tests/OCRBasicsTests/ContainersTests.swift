import OCRBasics
import Testing

/// The package's own containers (the toolchain has no Deque or Heap, and no outside package is
/// taken): checked against what an Array does, across growth and wrap-around.
@Suite struct ContainersTests {
    @Test func dequeIsAFIFOThatWrapsAndGrows() {
        var deque = Deque<Int>()
        var model: [Int] = []
        #expect(deque.isEmpty && deque.first == nil && deque.popFirst() == nil)
        // Interleaved pushes at both ends and pops, past several growths and many wraps.
        for i in 0..<2_000 {
            switch i % 5 {
            case 0, 1, 2: deque.append(i); model.append(i)
            case 3: deque.prepend(i); model.insert(i, at: 0)
            default: #expect(deque.popFirst() == model.removeFirst())
            }
            #expect(deque.count == model.count && deque.first == model.first)
        }
        #expect(deque.elements == model)
        // Removing the first element that matches keeps the others in order.
        let target = model[model.count / 2]
        #expect(deque.removeFirst(where: { $0 == target }) == target)
        model.remove(at: model.firstIndex(of: target)!)
        #expect(deque.elements == model)
        #expect(deque.removeFirst(where: { $0 < 0 }) == nil)
    }

    @Test func heapPopsInOrderAndOnlyWhatIsDue() {
        var heap = Heap<Int>()
        let values = (0..<500).map { ($0 * 7919) % 1009 }
        for v in values { heap.insert(v) }
        #expect(heap.count == 500 && heap.min == values.min())
        #expect(heap.popMin(if: { $0 > 10_000 }) == nil, "nothing is due")
        var popped: [Int] = []
        while let v = heap.popMin() { popped.append(v) }
        #expect(popped == values.sorted())
        #expect(heap.isEmpty)
    }

    @Test func lockedSerialisesWritersAcrossThreads() async {
        let counter = Locked(0)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 { group.addTask { for _ in 0..<1_000 { counter.withLock { $0 += 1 } } } }
        }
        #expect(counter.withLock { $0 } == 8_000)
    }
}
