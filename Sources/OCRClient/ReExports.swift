import OCRStructure
import OCRZeroMQ
import OCRWire

// The wire and CURVE types this library's API takes and returns, under their short names, so that
// `import OCRClient` alone is enough to use it. They are OCRWire's namespaced types
// (`Ocr_V1_...`, as swift-protobuf names them); importing OCRWire as well is fine, since these
// are the same types. The wire's NormalizedRect (top-left origin) is not here: this library's
// `NormalizedRect` is Vision's (bottom-left origin), and `Ocr_V1_NormalizedRect` is the wire's.

/// An error with a gRPC status code and the file and page it concerns.
public typealias OCRError = OCRWire.OCRError
/// gRPC's status codes (`OCRError.code`).
public typealias StatusCode = Ocr_V1_StatusCode
/// A status as it travels on the wire (`PageFailed.status`, `JobFinished.status`).
public typealias Status = Ocr_V1_Status

/// How pages are recognised (languages, level, candidates, preprocessing, page ranges, ...).
public typealias RecognitionOptions = Ocr_V1_RecognitionOptions
/// `ocr.v1.RecognitionLevel` of `proto/ocr/v1/` (`Ocr_V1_RecognitionLevel`).
public typealias RecognitionLevel = Ocr_V1_RecognitionLevel
/// `ocr.v1.Binarization` of `proto/ocr/v1/` (`Ocr_V1_Binarization`).
public typealias Binarization = Ocr_V1_Binarization
/// `ocr.v1.PageSegmentationMode` of `proto/ocr/v1/` (`Ocr_V1_PageSegmentationMode`).
public typealias PageSegmentationMode = Ocr_V1_PageSegmentationMode
/// `ocr.v1.EngineMode` of `proto/ocr/v1/` (`Ocr_V1_EngineMode`): the LSTM or the legacy recogniser.
public typealias EngineMode = Ocr_V1_EngineMode
/// `ocr.v1.PdfTextLayer` of `proto/ocr/v1/` (`Ocr_V1_PdfTextLayer`).
public typealias PdfTextLayer = Ocr_V1_PdfTextLayer
/// `ocr.v1.TextSource` of `proto/ocr/v1/` (`Ocr_V1_TextSource`).
public typealias TextSource = Ocr_V1_TextSource
/// `ocr.v1.PageRange` of `proto/ocr/v1/` (`Ocr_V1_PageRange`).
public typealias PageRange = Ocr_V1_PageRange
/// One submitted file (name and bytes).
public typealias InputFile = Ocr_V1_InputFile
/// `ocr.v1.ImageFormat` of `proto/ocr/v1/` (`Ocr_V1_ImageFormat`).
public typealias ImageFormat = Ocr_V1_ImageFormat

/// A job as the coordinator reports it, and its events.
public typealias SubmitJobResponse = Ocr_V1_SubmitJobResponse
/// `ocr.v1.Job` of `proto/ocr/v1/` (`Ocr_V1_Job`).
public typealias Job = Ocr_V1_Job
/// `ocr.v1.JobState` of `proto/ocr/v1/` (`Ocr_V1_JobState`).
public typealias JobState = Ocr_V1_JobState
/// `ocr.v1.PageState` of `proto/ocr/v1/` (`Ocr_V1_PageState`).
public typealias PageState = Ocr_V1_PageState
/// `ocr.v1.JobEvent` of `proto/ocr/v1/` (`Ocr_V1_JobEvent`).
public typealias JobEvent = Ocr_V1_JobEvent
/// `ocr.v1.PageCompleted` of `proto/ocr/v1/` (`Ocr_V1_PageCompleted`).
public typealias PageCompleted = Ocr_V1_PageCompleted
/// `ocr.v1.PageFailed` of `proto/ocr/v1/` (`Ocr_V1_PageFailed`).
public typealias PageFailed = Ocr_V1_PageFailed
/// `ocr.v1.JobProgress` of `proto/ocr/v1/` (`Ocr_V1_JobProgress`).
public typealias JobProgress = Ocr_V1_JobProgress
/// `ocr.v1.JobFinished` of `proto/ocr/v1/` (`Ocr_V1_JobFinished`).
public typealias JobFinished = Ocr_V1_JobFinished
/// `ocr.v1.ListJobsResponse` of `proto/ocr/v1/` (`Ocr_V1_ListJobsResponse`).
public typealias ListJobsResponse = Ocr_V1_ListJobsResponse
/// `ocr.v1.ClusterStatusResponse` of `proto/ocr/v1/` (`Ocr_V1_ClusterStatusResponse`).
public typealias ClusterStatusResponse = Ocr_V1_ClusterStatusResponse
/// `ocr.v1.WorkerInfo` of `proto/ocr/v1/` (`Ocr_V1_WorkerInfo`).
public typealias WorkerInfo = Ocr_V1_WorkerInfo
/// `ocr.v1.HealthCheckResponse` of `proto/ocr/v1/` (`Ocr_V1_HealthCheckResponse`).
public typealias HealthCheckResponse = Ocr_V1_HealthCheckResponse

/// One recognised page: blocks, paragraphs, lines, words and symbols with boxes and confidences.
public typealias PageResult = Ocr_V1_PageResult
/// `ocr.v1.Block` of `proto/ocr/v1/` (`Ocr_V1_Block`).
public typealias Block = Ocr_V1_Block
/// `ocr.v1.BlockType` of `proto/ocr/v1/` (`Ocr_V1_BlockType`).
public typealias BlockType = Ocr_V1_BlockType
/// `ocr.v1.Paragraph` of `proto/ocr/v1/` (`Ocr_V1_Paragraph`).
public typealias Paragraph = Ocr_V1_Paragraph
/// `ocr.v1.TextLine` of `proto/ocr/v1/` (`Ocr_V1_TextLine`).
public typealias TextLine = Ocr_V1_TextLine
/// `ocr.v1.Word` of `proto/ocr/v1/` (`Ocr_V1_Word`).
public typealias Word = Ocr_V1_Word
/// `ocr.v1.Symbol` of `proto/ocr/v1/` (`Ocr_V1_Symbol`).
public typealias Symbol = Ocr_V1_Symbol
/// `ocr.v1.Candidate` of `proto/ocr/v1/` (`Ocr_V1_Candidate`).
public typealias Candidate = Ocr_V1_Candidate
/// A pixel box, top-left origin (as Tesseract and Textract report them).
public typealias BoundingBox = Ocr_V1_BoundingBox
/// `ocr.v1.Timings` of `proto/ocr/v1/` (`Ocr_V1_Timings`).
public typealias Timings = Ocr_V1_Timings

/// CURVE towards a coordinator that requires it: its public key and this client's key pair.
public typealias CurveClientSecurity = OCRZeroMQ.CurveClientSecurity
/// `OCRZeroMQ.CurveKey`, for CURVE configuration.
public typealias CurveKey = OCRZeroMQ.CurveKey
/// `OCRZeroMQ.CurveKeyPair`, for CURVE configuration.
public typealias CurveKeyPair = OCRZeroMQ.CurveKeyPair
/// Reads and writes CURVE key files (`ocr-coordinator keygen`).
public typealias CurveKeyFile = OCRZeroMQ.CurveKeyFile
/// `OCRZeroMQ.TransportError`, for CURVE configuration.
public typealias TransportError = OCRZeroMQ.TransportError

/// One page's structure (`Document.structure`): headings, paragraphs, lists, tables in reading order.
public typealias PageStructure = OCRStructure.PageStructure
/// A part of a page with a role: heading, paragraph, list, table, running header or footer.
public typealias StructureElement = OCRStructure.StructureElement
/// A box in a page image's pixels (top-left origin) in Swift integers.
public typealias PageBox = OCRStructure.PageBox
/// Text with its box (a paragraph, a running header or footer).
public typealias TextBlock = OCRStructure.TextBlock
/// A heading and its level.
public typealias Heading = OCRStructure.Heading
/// A list of items, nested by indentation.
public typealias ListBlock = OCRStructure.ListBlock
/// One list item.
public typealias ListItem = OCRStructure.ListItem
/// A table: rows of cells.
public typealias TableBlock = OCRStructure.TableBlock
/// One table cell.
public typealias TableCell = OCRStructure.TableCell
/// A date, an amount, a phone number, an e-mail address or a link found in a page's text.
public typealias DetectedData = OCRStructure.DetectedData
