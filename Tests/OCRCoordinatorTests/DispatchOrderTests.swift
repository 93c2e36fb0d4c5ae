import OCRCoordinator
import OCRPages
import OCRWire
import Testing

/// A job's pages far larger than its others go out first, largest first; the rest, and every
/// job of like pages, in page order; requeued pages still before either.
@Suite struct DispatchOrderTests {
    static func pages(_ bytes: [Int?]) -> [PageDescriptor] {
        bytes.enumerated().map { i, count in
            count.map { PageDescriptor(file: "p\(i).png", content: [UInt8](repeating: 0, count: $0), format: .png) }
                ?? PageDescriptor(file: "doc.pdf", filePage: i + 1, content: [1], format: .pdf, cut: .pdfPage)
        }
    }

    @Test func heavyPagesAreTwiceTheMedianOrMore() {
        #expect(DispatchOrder.heavyPages(Self.pages([10, 10, 19, 10])) == [])
        #expect(DispatchOrder.heavyPages(Self.pages([10, 10, 20, 10])) == [2])
        #expect(DispatchOrder.heavyPages(Self.pages([10, 40, 10, 25, 10, 40, 10])) == [1, 5, 3], "largest first, ties in page order")
        #expect(DispatchOrder.heavyPages(Self.pages([10, 10, 10])) == [])
    }

    @Test func pagesThatDoNotTellTheirBytesStayInOrder() {
        #expect(DispatchOrder.heavyPages(Self.pages([10, 90])) == [], "fewer than three sizes: no median to judge by")
        #expect(DispatchOrder.heavyPages(Self.pages([nil, nil, nil, 90])) == [])
        #expect(DispatchOrder.heavyPages(Self.pages([nil, 10, 10, nil, 30])) == [4], "PDF pages neither heavy nor counted")
    }

    @Test func theHeavyPageGoesFirstAndTheRestInOrder() {
        var h = SchedulerHarness { $0.prefetch = 0 }
        h.ready(1, slots: 1)
        var task = h.submit("a", pageBytes: [100, 100, 100, 100, 500, 100]).tasks[0].task
        var order = [task.pageIndex]
        while let next = h.succeed(1, task).tasks.first?.task {
            order.append(next.pageIndex)
            task = next
        }
        #expect(order == [4, 0, 1, 2, 3, 5])
    }

    @Test func aRequeuedPageStillComesBeforeAHeavyOne() throws {
        var h = SchedulerHarness { $0.prefetch = 0 }
        h.ready(1, slots: 1)
        let first = try #require(h.submit("a", pageBytes: [100, 100, 100, 400, 300, 100]).tasks.first).task
        #expect(first.pageIndex == 3)
        // The worker fails page 3 retryably: it is served again before page 4, heavy too.
        let again = try #require(h.fail(1, first, .internal).tasks.first).task
        #expect(again.pageIndex == 3 && again.attempt == 2)
        #expect(h.succeed(1, again).tasks.map(\.task.pageIndex) == [4])
    }
}
