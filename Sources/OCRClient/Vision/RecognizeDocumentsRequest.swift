import Foundation
import OCRStructure

/// Reads documents with their structure: paragraphs, lists and tables of each page, and the
/// data detected in their text. Vision: `RecognizeDocumentsRequest` (iOS and macOS 26), whose
/// `DocumentObservation` these values follow; regions are normalised with Vision's bottom-left
/// origin.
public struct RecognizeDocumentsRequest: Sendable {
    /// The recognition under the structure (languages, level...): a `RecognizeTextRequest`.
    public var textRecognition = RecognizeTextRequest()

    /// A request with `textRecognition`'s defaults.
    public init() {}

    /// One observation per page of `files`, in page order. Throws the first failed page's error
    /// (it names the file and page).
    /// Vision: `RecognizeDocumentsRequest.perform(on:)`.
    public func perform(on files: [URL], using client: OCRClient) async throws -> [DocumentObservation] {
        let document = try await textRecognition.document(on: files, using: client)
        if let gap = document.gaps.first {
            throw gap.error ?? OCRError(.unavailable, "page \(gap.pageIndex + 1) has no result")
        }
        return document.documentObservations
    }
}

extension OCRClient {
    /// Performs `request` on `files`. Vision: `ImageRequestHandler.perform(_:)`.
    public func perform(_ request: RecognizeDocumentsRequest, on files: [URL]) async throws -> [DocumentObservation] {
        try await request.perform(on: files, using: self)
    }
}

/// One page read as a document. Vision: `DocumentObservation`.
public struct DocumentObservation: Sendable, Equatable {
    /// Zero-based index of the page in its job.
    public var pageIndex: Int
    /// The page's parts.
    public var document: Container

    /// What a page (or a table cell) holds. Vision: `DocumentObservation.Container`.
    public struct Container: Sendable, Equatable {
        /// All of its text in reading order, paragraphs separated by blank lines.
        public var text: Text
        /// The first heading, when there is one.
        public var title: Text?
        /// Headings and paragraphs, in reading order (running headers and footers left out).
        public var paragraphs: [Text]
        /// Its lists.
        public var lists: [List]
        /// Its tables.
        public var tables: [Table]
    }

    /// Text with its region and what was detected in it. Vision: `DocumentObservation.Container.Text`.
    public struct Text: Sendable, Equatable {
        /// The text as read.
        public var transcript: String
        /// Where it is on the page (normalised, bottom-left origin).
        public var boundingRegion: NormalizedRect
        /// Dates, amounts, phone numbers, e-mail addresses and links inside it.
        public var detectedData: [DetectedData]
    }

    /// A list. Vision: `DocumentObservation.Container.List`.
    public struct List: Sendable, Equatable {
        /// Its items in order.
        public var items: [Item]
        /// Where it is.
        public var boundingRegion: NormalizedRect

        /// One item. Vision: `DocumentObservation.Container.List.Item`.
        public struct Item: Sendable, Equatable {
            /// The marker as read (`•`, `3.`).
            public var markerString: String
            /// The item's text without its marker.
            public var itemString: String
            /// Nesting depth from 0.
            public var level: Int
            /// Where it is.
            public var boundingRegion: NormalizedRect
        }
    }

    /// A table. Vision: `DocumentObservation.Container.Table`.
    public struct Table: Sendable, Equatable {
        /// Rows from the top, each row's cells from the left (a spanning cell once).
        public var rows: [[Cell]]
        /// Columns of its grid.
        public var columnCount: Int
        /// How many of the first rows are header rows.
        public var headerRowCount: Int
        /// Where it is.
        public var boundingRegion: NormalizedRect

        /// One cell. Vision: `DocumentObservation.Container.Table.Cell`.
        public struct Cell: Sendable, Equatable {
            /// The cell's text (its region is the cell's words'; an empty cell has none).
            public var content: Text?
            /// The rows it covers (zero-based, inclusive).
            public var rowRange: ClosedRange<Int>
            /// The columns it covers (zero-based, inclusive).
            public var columnRange: ClosedRange<Int>
        }
    }
}

extension Document {
    /// Each recognised page as a `DocumentObservation`, in page order.
    public var documentObservations: [DocumentObservation] {
        let results = Dictionary(recognizedPages.map { (Int($0.pageIndex), $0) }, uniquingKeysWith: { first, _ in first })
        return structure.compactMap { page in
            guard let result = results[page.pageIndex] else { return nil }
            return DocumentObservation(page, width: Int(result.width), height: Int(result.height))
        }
    }
}

extension DocumentObservation {
    init(_ page: PageStructure, width: Int, height: Int) {
        func region(_ box: PageBox) -> NormalizedRect {
            NormalizedRect(PixelBox(left: box.x, top: box.y, right: box.maxX, bottom: box.maxY), imageWidth: width, imageHeight: height)
        }
        func inside(_ box: PageBox) -> [DetectedData] {
            page.detectedData.filter { $0.box.x >= box.x && $0.box.maxX <= box.maxX && $0.box.y >= box.y && $0.box.maxY <= box.maxY }
        }
        func text(_ transcript: String, _ box: PageBox) -> Text {
            Text(transcript: transcript, boundingRegion: region(box), detectedData: inside(box))
        }
        var paragraphs: [Text] = [], lists: [List] = [], tables: [Table] = [], transcripts: [String] = [], boxes: [PageBox] = []
        var title: Text?
        for element in page.elements {
            switch element {
            case .heading(let heading):
                let t = text(heading.text, heading.box)
                title = title ?? t
                paragraphs.append(t)
                transcripts.append(heading.text)
            case .paragraph(let block), .caption(let block), .footnote(let block):
                paragraphs.append(text(block.text, block.box))
                transcripts.append(block.text)
            case .list(let list):
                lists.append(List(items: list.items.map {
                    List.Item(markerString: $0.marker, itemString: $0.text, level: $0.level, boundingRegion: region($0.box))
                }, boundingRegion: region(list.box)))
                transcripts.append(list.items.map { $0.marker + " " + $0.text }.joined(separator: "\n"))
            case .table(let table):
                var rows: [[Table.Cell]] = []
                for (r, row) in table.rows.enumerated() {
                    rows.append(row.map { cell in
                        Table.Cell(content: cell.box.map { text(cell.text, $0) }, rowRange: r...(r + cell.rowSpan - 1),
                                   columnRange: cell.column...(cell.column + cell.columnSpan - 1))
                    })
                }
                tables.append(Table(rows: rows, columnCount: table.columnCount, headerRowCount: table.headerRows, boundingRegion: region(table.box)))
                transcripts.append(table.rows.map { $0.map(\.text).joined(separator: "\t") }.joined(separator: "\n"))
            case .pageHeader, .pageFooter:
                continue
            }
            boxes.append(element.box)
        }
        let all = PageBox.union(boxes) ?? PageBox(x: 0, y: 0, width: width, height: height)
        self.init(pageIndex: page.pageIndex, document: Container(
            text: Text(transcript: transcripts.joined(separator: "\n\n"), boundingRegion: region(all), detectedData: inside(all)),
            title: title, paragraphs: paragraphs, lists: lists, tables: tables))
    }
}
