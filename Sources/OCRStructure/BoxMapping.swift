/// The same structure with every box moved by one function: from the upright page to the
/// original image and back (`UprightFrame`), on the worker and on the client.
extension StructureElement {
    func mappingBoxes(_ map: (PageBox) -> PageBox) -> StructureElement {
        switch self {
        case .heading(var heading):
            heading.box = map(heading.box)
            return .heading(heading)
        case .paragraph(let block): return .paragraph(block.mappingBox(map))
        case .pageHeader(let block): return .pageHeader(block.mappingBox(map))
        case .pageFooter(let block): return .pageFooter(block.mappingBox(map))
        case .caption(let block): return .caption(block.mappingBox(map))
        case .footnote(let block): return .footnote(block.mappingBox(map))
        case .list(var list):
            list.box = map(list.box)
            list.items = list.items.map { item in
                var item = item
                item.box = map(item.box)
                return item
            }
            return .list(list)
        case .table(var table):
            table.box = map(table.box)
            table.rows = table.rows.map { row in
                row.map { cell in
                    var cell = cell
                    cell.box = cell.box.map(map)
                    return cell
                }
            }
            return .table(table)
        }
    }
}

extension ParagraphRoles.Element {
    func mappingBoxes(_ map: (PageBox) -> PageBox) -> ParagraphRoles.Element {
        switch self {
        case .heading(var candidate):
            candidate.box = map(candidate.box)
            return .heading(candidate)
        case .done(let element): return .done(element.mappingBoxes(map))
        }
    }

    /// Where it is on its page.
    var box: PageBox {
        switch self {
        case .heading(let candidate): candidate.box
        case .done(let element): element.box
        }
    }
}

extension TextBlock {
    func mappingBox(_ map: (PageBox) -> PageBox) -> TextBlock {
        var block = self
        block.box = map(box)
        return block
    }
}

extension DetectedData {
    func mappingBox(_ map: (PageBox) -> PageBox) -> DetectedData {
        var data = self
        data.box = map(box)
        return data
    }
}
