import Foundation
import OCREngine
import OCRPages
import OCRWire
import Testing

extension EngineTests {
    @Suite struct Preprocessing {
        @Test func deskewLowersErrorOnA3DegreePage() async throws {
            let page = Fixtures.page("skew3.png")
            let reference = Fixtures.text("skew3.txt")
            // At `fast`: the default level reads doubtful numbers again line by line, which repairs
            // the skewed "1234" on its own and would hide what deskewing does.
            let plain = try await recognize(page, RecognitionOptions.with { $0.level = .fast })
            var opts = RecognitionOptions.with { $0.level = .fast }
            opts.deskew = true
            let straight = try await recognize(page, opts)
            let before = characterErrorRate(plain.text, reference: reference)
            let after = characterErrorRate(straight.text, reference: reference)
            print("[figures] skew3.png CER without deskew \(before), with deskew \(after) (skew found \(straight.skewDegrees) degrees)")
            #expect(after < before)
            #expect(abs(straight.skewDegrees - 3) < 0.5)
            #expect(plain.skewDegrees == 0)
            // Boxes refer to the original (skewed) image: a line's box spans the skewed line.
            #expect(straight.width == plain.width && straight.height == plain.height)
            checkBoxes(straight)
            let firstLine = try #require(straight.blocks.first?.paragraphs.first?.lines.first)
            let plainFirst = try #require(plain.blocks.first?.paragraphs.first?.lines.first)
            #expect(abs(Int(firstLine.box!.y) - Int(plainFirst.box!.y)) < 25)
            #expect(firstLine.baseline.count == 4)
            // The baseline maps back to a line tilted like the scan: rising to the right by about 3 degrees.
            let b = firstLine.baseline.map(Double.init)
            let tilt = atan2(b[1] - b[3], b[2] - b[0]) * 180 / .pi
            #expect(abs(tilt - 3) < 1, "baseline tilt \(tilt)")
        }

        @Test(arguments: [("rot90.png", 90), ("rot180.png", 180)])
        func autoRotateRecoversText(name: String, degrees: Int) async throws {
            var opts = RecognitionOptions()
            opts.autoRotate = true
            let result = try await recognize(Fixtures.page(name), opts)
            let cer = characterErrorRate(result.text, reference: Fixtures.text("text.txt"))
            print("[figures] \(name) auto-rotated \(result.rotationDegrees) degrees: CER \(cer)")
            #expect(result.rotationDegrees == Int32(degrees))
            #expect(cer < 0.02)
            checkBoxes(result)
            // Boxes are in the original (rotated) image: on the 90-degree page, lines stand upright.
            let line = try #require(result.blocks.first?.paragraphs.first?.lines.first?.box)
            if degrees == 90 {
                #expect(line.height > 3 * line.width)
                #expect(result.width == 357 && result.height == 1049)
            } else {
                #expect(line.width > 3 * line.height)
                // The first line of text is at the bottom of the upside-down page.
                #expect(line.y > 357 / 2)
            }
        }

        /// A page upside down is read upright at every level without `auto_rotate`: its first
        /// reading is doubtful (low confidence, few dictionary words), OSD finds it upside down,
        /// and read turned it is more often in the dictionary (UpsideDownPage.swift).
        @Test func anUpsideDownPageIsReadUpright() async throws {
            for level in [RecognitionLevel.fast, .accurate] {
                let result = try await recognize(Fixtures.page("rot180.png"), RecognitionOptions.with { $0.level = level })
                #expect(result.rotationDegrees == 180, "\(level)")
                #expect(characterErrorRate(result.text, reference: Fixtures.text("text.txt")) < 0.02, "\(level)")
                #expect(try #require(result.timings?.steps).map(\.step).contains("find_orientation"))
                checkBoxes(result)
            }
        }

        /// A doubtful upright page whose band reads no better turned (aim916's page 27, its back's
        /// text showing through mirrored) keeps its first reading, neither read whole turned nor
        /// read again: not even where its reading left letters out (lost text), inside frames
        /// (ruled cells), its tall doubtful words, nor enlarged for its doubt, which a reading
        /// that never checks the orientation (a region of interest over the whole page skips the
        /// check) reads again, for more noise.
        @Test func aDoubtfulUprightPageKeepsItsFirstReading() async throws {
            let page = Fixtures.page("real/multipage/aim916.tiff", filePage: 27)
            let checked = try await recognize(page)
            let steps = try #require(checked.timings?.steps).map(\.step)
            #expect(steps.contains("find_orientation"), "the page is no longer doubtful: this test tests nothing")
            #expect(steps.contains("check_upside_down"), "OSD decided: the band was not read turned")
            #expect(checked.rotationDegrees == 0)
            for step in ["merged_rows", "sideways_text", "pass_cell_block", "pass_enlarged"] {
                #expect(!steps.contains(step), "\(step) read a page of noise again")
            }
            let unchecked = try await recognize(page, RecognitionOptions.with {
                $0.regionOfInterest = Ocr_V1_NormalizedRect.with { $0.width = 1; $0.height = 1 }
            })
            let uncheckedSteps = try #require(unchecked.timings?.steps).map(\.step)
            #expect(!uncheckedSteps.contains("find_orientation"))
            #expect(uncheckedSteps.contains("merged_rows"), "nothing on the page is read again anyway: this test tests nothing")
            #expect(checked.words.count < unchecked.words.count)
        }

        /// A page lying on its side is read upright at every level without `auto_rotate`: its
        /// layout shows most lines running down it (SidewaysPage.swift), OSD says which way.
        @Test(arguments: [("rot90.png", 90), ("rot270.png", 270)])
        func aSidewaysPageIsReadUpright(name: String, degrees: Int) async throws {
            for level in [RecognitionLevel.fast, .accurate] {
                let result = try await recognize(Fixtures.page(name), RecognitionOptions.with { $0.level = level })
                let cer = characterErrorRate(result.text, reference: Fixtures.text("text.txt"))
                #expect(result.rotationDegrees == Int32(degrees), "\(level)")
                #expect(cer < 0.02, "\(level): CER \(cer)")
                #expect(try #require(result.timings?.steps).map(\.step).contains("check_sideways"))
                checkBoxes(result)
                // Boxes in the original image, where the lines stand upright.
                let line = try #require(result.blocks.first?.paragraphs.first?.lines.first?.box)
                #expect(line.height > 3 * line.width)
            }
            let upright = try await recognize(Fixtures.page("text.png"))
            #expect(upright.rotationDegrees == 0)
            #expect(try #require(upright.timings?.steps).map(\.step).contains("check_sideways") == false)
        }

        /// Without the `osd` model (or where OSD is unsure), reading a strip of the page each way
        /// tells which way it lies.
        @Test func aSidewaysPageIsTurnedByReadingWithoutOSD() async throws {
            let models = FileManager.default.temporaryDirectory.appendingPathComponent("no-osd-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: models, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: models) }
            let eng = URL(fileURLWithPath: EngineConfiguration.defaultTessdataPath).appendingPathComponent("eng.traineddata")
            try FileManager.default.createSymbolicLink(at: models.appendingPathComponent("eng.traineddata"), withDestinationURL: eng)
            let engine = EngineThread(name: "no-osd", configuration: EngineConfiguration(tessdataPath: models.path))
            defer { engine.shutdown() }
            for (name, degrees) in [("rot90.png", 90), ("rot270.png", 270)] {
                let page = Fixtures.page(name)
                let result = try await engine.run { r throws(OCRError) in try r.recognize(page) }
                #expect(result.rotationDegrees == Int32(degrees), "\(name)")
                #expect(characterErrorRate(result.text, reference: Fixtures.text("text.txt")) < 0.02, "\(name)")
            }
        }

        @Test func uprightPageIsNotRotated() async throws {
            var opts = RecognitionOptions()
            opts.autoRotate = true
            opts.deskew = true
            let result = try await recognize(Fixtures.page("text.png"), opts)
            #expect(result.rotationDegrees == 0 && result.skewDegrees == 0)
            #expect(characterErrorRate(result.text, reference: Fixtures.text("text.txt")) < 0.02)
        }
    }
}
