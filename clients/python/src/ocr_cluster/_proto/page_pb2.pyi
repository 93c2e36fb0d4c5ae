from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar, Iterable as _Iterable, Mapping as _Mapping, Optional as _Optional, Union as _Union

BLOCK_TYPE_IMAGE: BlockType
BLOCK_TYPE_OTHER: BlockType
BLOCK_TYPE_SEPARATOR: BlockType
BLOCK_TYPE_TABLE: BlockType
BLOCK_TYPE_TEXT: BlockType
BLOCK_TYPE_UNSPECIFIED: BlockType
DESCRIPTOR: _descriptor.FileDescriptor
DETECTED_DATA_KIND_DATE: DetectedDataKind
DETECTED_DATA_KIND_EMAIL_ADDRESS: DetectedDataKind
DETECTED_DATA_KIND_LINK: DetectedDataKind
DETECTED_DATA_KIND_MONEY: DetectedDataKind
DETECTED_DATA_KIND_PHONE_NUMBER: DetectedDataKind
DETECTED_DATA_KIND_UNSPECIFIED: DetectedDataKind
PDF_IMAGE_ENCODING_CCITT_G4: PdfImageEncoding
PDF_IMAGE_ENCODING_DCT: PdfImageEncoding
PDF_IMAGE_ENCODING_FLATE: PdfImageEncoding
PDF_IMAGE_ENCODING_UNSPECIFIED: PdfImageEncoding
TEXT_SOURCE_OCR: TextSource
TEXT_SOURCE_PDF: TextSource

class Block(_message.Message):
    __slots__ = ["box", "confidence", "paragraphs", "text", "type"]
    BOX_FIELD_NUMBER: _ClassVar[int]
    CONFIDENCE_FIELD_NUMBER: _ClassVar[int]
    PARAGRAPHS_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    TYPE_FIELD_NUMBER: _ClassVar[int]
    box: BoundingBox
    confidence: float
    paragraphs: _containers.RepeatedCompositeFieldContainer[Paragraph]
    text: str
    type: BlockType
    def __init__(self, text: _Optional[str] = ..., confidence: _Optional[float] = ..., box: _Optional[_Union[BoundingBox, _Mapping]] = ..., type: _Optional[_Union[BlockType, str]] = ..., paragraphs: _Optional[_Iterable[_Union[Paragraph, _Mapping]]] = ...) -> None: ...

class BoundingBox(_message.Message):
    __slots__ = ["height", "width", "x", "y"]
    HEIGHT_FIELD_NUMBER: _ClassVar[int]
    WIDTH_FIELD_NUMBER: _ClassVar[int]
    X_FIELD_NUMBER: _ClassVar[int]
    Y_FIELD_NUMBER: _ClassVar[int]
    height: int
    width: int
    x: int
    y: int
    def __init__(self, x: _Optional[int] = ..., y: _Optional[int] = ..., width: _Optional[int] = ..., height: _Optional[int] = ...) -> None: ...

class Candidate(_message.Message):
    __slots__ = ["confidence", "text"]
    CONFIDENCE_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    confidence: float
    text: str
    def __init__(self, text: _Optional[str] = ..., confidence: _Optional[float] = ...) -> None: ...

class LayoutData(_message.Message):
    __slots__ = ["box", "kind", "text"]
    BOX_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    box: BoundingBox
    kind: DetectedDataKind
    text: str
    def __init__(self, kind: _Optional[_Union[DetectedDataKind, str]] = ..., text: _Optional[str] = ..., box: _Optional[_Union[BoundingBox, _Mapping]] = ...) -> None: ...

class LayoutElement(_message.Message):
    __slots__ = ["caption", "footnote", "heading", "list", "paragraph", "table"]
    CAPTION_FIELD_NUMBER: _ClassVar[int]
    FOOTNOTE_FIELD_NUMBER: _ClassVar[int]
    HEADING_FIELD_NUMBER: _ClassVar[int]
    LIST_FIELD_NUMBER: _ClassVar[int]
    PARAGRAPH_FIELD_NUMBER: _ClassVar[int]
    TABLE_FIELD_NUMBER: _ClassVar[int]
    caption: LayoutText
    footnote: LayoutText
    heading: LayoutHeading
    list: LayoutList
    paragraph: LayoutText
    table: LayoutTable
    def __init__(self, heading: _Optional[_Union[LayoutHeading, _Mapping]] = ..., paragraph: _Optional[_Union[LayoutText, _Mapping]] = ..., list: _Optional[_Union[LayoutList, _Mapping]] = ..., table: _Optional[_Union[LayoutTable, _Mapping]] = ..., caption: _Optional[_Union[LayoutText, _Mapping]] = ..., footnote: _Optional[_Union[LayoutText, _Mapping]] = ...) -> None: ...

class LayoutHeading(_message.Message):
    __slots__ = ["box", "numbering_depth", "size_ratio", "text"]
    BOX_FIELD_NUMBER: _ClassVar[int]
    NUMBERING_DEPTH_FIELD_NUMBER: _ClassVar[int]
    SIZE_RATIO_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    box: BoundingBox
    numbering_depth: int
    size_ratio: float
    text: str
    def __init__(self, text: _Optional[str] = ..., box: _Optional[_Union[BoundingBox, _Mapping]] = ..., size_ratio: _Optional[float] = ..., numbering_depth: _Optional[int] = ...) -> None: ...

class LayoutLine(_message.Message):
    __slots__ = ["box", "text"]
    BOX_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    box: BoundingBox
    text: str
    def __init__(self, text: _Optional[str] = ..., box: _Optional[_Union[BoundingBox, _Mapping]] = ...) -> None: ...

class LayoutList(_message.Message):
    __slots__ = ["box", "items", "ordered"]
    BOX_FIELD_NUMBER: _ClassVar[int]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    ORDERED_FIELD_NUMBER: _ClassVar[int]
    box: BoundingBox
    items: _containers.RepeatedCompositeFieldContainer[LayoutListItem]
    ordered: bool
    def __init__(self, ordered: bool = ..., items: _Optional[_Iterable[_Union[LayoutListItem, _Mapping]]] = ..., box: _Optional[_Union[BoundingBox, _Mapping]] = ...) -> None: ...

class LayoutListItem(_message.Message):
    __slots__ = ["box", "level", "marker", "text"]
    BOX_FIELD_NUMBER: _ClassVar[int]
    LEVEL_FIELD_NUMBER: _ClassVar[int]
    MARKER_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    box: BoundingBox
    level: int
    marker: str
    text: str
    def __init__(self, marker: _Optional[str] = ..., text: _Optional[str] = ..., level: _Optional[int] = ..., box: _Optional[_Union[BoundingBox, _Mapping]] = ...) -> None: ...

class LayoutTable(_message.Message):
    __slots__ = ["box", "column_count", "header_rows", "rows"]
    BOX_FIELD_NUMBER: _ClassVar[int]
    COLUMN_COUNT_FIELD_NUMBER: _ClassVar[int]
    HEADER_ROWS_FIELD_NUMBER: _ClassVar[int]
    ROWS_FIELD_NUMBER: _ClassVar[int]
    box: BoundingBox
    column_count: int
    header_rows: int
    rows: _containers.RepeatedCompositeFieldContainer[LayoutTableRow]
    def __init__(self, rows: _Optional[_Iterable[_Union[LayoutTableRow, _Mapping]]] = ..., header_rows: _Optional[int] = ..., column_count: _Optional[int] = ..., box: _Optional[_Union[BoundingBox, _Mapping]] = ...) -> None: ...

class LayoutTableCell(_message.Message):
    __slots__ = ["box", "column", "column_span", "row_span", "text"]
    BOX_FIELD_NUMBER: _ClassVar[int]
    COLUMN_FIELD_NUMBER: _ClassVar[int]
    COLUMN_SPAN_FIELD_NUMBER: _ClassVar[int]
    ROW_SPAN_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    box: BoundingBox
    column: int
    column_span: int
    row_span: int
    text: str
    def __init__(self, text: _Optional[str] = ..., column: _Optional[int] = ..., column_span: _Optional[int] = ..., row_span: _Optional[int] = ..., box: _Optional[_Union[BoundingBox, _Mapping]] = ...) -> None: ...

class LayoutTableRow(_message.Message):
    __slots__ = ["cells"]
    CELLS_FIELD_NUMBER: _ClassVar[int]
    cells: _containers.RepeatedCompositeFieldContainer[LayoutTableCell]
    def __init__(self, cells: _Optional[_Iterable[_Union[LayoutTableCell, _Mapping]]] = ...) -> None: ...

class LayoutText(_message.Message):
    __slots__ = ["box", "text"]
    BOX_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    box: BoundingBox
    text: str
    def __init__(self, text: _Optional[str] = ..., box: _Optional[_Union[BoundingBox, _Mapping]] = ...) -> None: ...

class PageLayout(_message.Message):
    __slots__ = ["bottom_lines", "detected_data", "elements", "top_lines"]
    BOTTOM_LINES_FIELD_NUMBER: _ClassVar[int]
    DETECTED_DATA_FIELD_NUMBER: _ClassVar[int]
    ELEMENTS_FIELD_NUMBER: _ClassVar[int]
    TOP_LINES_FIELD_NUMBER: _ClassVar[int]
    bottom_lines: _containers.RepeatedCompositeFieldContainer[LayoutLine]
    detected_data: _containers.RepeatedCompositeFieldContainer[LayoutData]
    elements: _containers.RepeatedCompositeFieldContainer[LayoutElement]
    top_lines: _containers.RepeatedCompositeFieldContainer[LayoutLine]
    def __init__(self, elements: _Optional[_Iterable[_Union[LayoutElement, _Mapping]]] = ..., top_lines: _Optional[_Iterable[_Union[LayoutLine, _Mapping]]] = ..., bottom_lines: _Optional[_Iterable[_Union[LayoutLine, _Mapping]]] = ..., detected_data: _Optional[_Iterable[_Union[LayoutData, _Mapping]]] = ...) -> None: ...

class PageResult(_message.Message):
    __slots__ = ["attempt", "blocks", "dewarped", "dpi", "file", "file_page", "height", "layout", "mean_confidence", "page_index", "page_quad", "pdf_image", "pdf_page", "rotation_degrees", "rules", "skew_degrees", "text", "text_source", "timings", "width", "worker_uid"]
    ATTEMPT_FIELD_NUMBER: _ClassVar[int]
    BLOCKS_FIELD_NUMBER: _ClassVar[int]
    DEWARPED_FIELD_NUMBER: _ClassVar[int]
    DPI_FIELD_NUMBER: _ClassVar[int]
    FILE_FIELD_NUMBER: _ClassVar[int]
    FILE_PAGE_FIELD_NUMBER: _ClassVar[int]
    HEIGHT_FIELD_NUMBER: _ClassVar[int]
    LAYOUT_FIELD_NUMBER: _ClassVar[int]
    MEAN_CONFIDENCE_FIELD_NUMBER: _ClassVar[int]
    PAGE_INDEX_FIELD_NUMBER: _ClassVar[int]
    PAGE_QUAD_FIELD_NUMBER: _ClassVar[int]
    PDF_IMAGE_FIELD_NUMBER: _ClassVar[int]
    PDF_PAGE_FIELD_NUMBER: _ClassVar[int]
    ROTATION_DEGREES_FIELD_NUMBER: _ClassVar[int]
    RULES_FIELD_NUMBER: _ClassVar[int]
    SKEW_DEGREES_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    TEXT_SOURCE_FIELD_NUMBER: _ClassVar[int]
    TIMINGS_FIELD_NUMBER: _ClassVar[int]
    WIDTH_FIELD_NUMBER: _ClassVar[int]
    WORKER_UID_FIELD_NUMBER: _ClassVar[int]
    attempt: int
    blocks: _containers.RepeatedCompositeFieldContainer[Block]
    dewarped: bool
    dpi: int
    file: str
    file_page: int
    height: int
    layout: PageLayout
    mean_confidence: float
    page_index: int
    page_quad: _containers.RepeatedScalarFieldContainer[int]
    pdf_image: PdfImage
    pdf_page: bytes
    rotation_degrees: int
    rules: _containers.RepeatedCompositeFieldContainer[BoundingBox]
    skew_degrees: float
    text: str
    text_source: TextSource
    timings: Timings
    width: int
    worker_uid: int
    def __init__(self, page_index: _Optional[int] = ..., file: _Optional[str] = ..., file_page: _Optional[int] = ..., width: _Optional[int] = ..., height: _Optional[int] = ..., dpi: _Optional[int] = ..., rotation_degrees: _Optional[int] = ..., skew_degrees: _Optional[float] = ..., timings: _Optional[_Union[Timings, _Mapping]] = ..., worker_uid: _Optional[int] = ..., blocks: _Optional[_Iterable[_Union[Block, _Mapping]]] = ..., text: _Optional[str] = ..., mean_confidence: _Optional[float] = ..., attempt: _Optional[int] = ..., text_source: _Optional[_Union[TextSource, str]] = ..., pdf_image: _Optional[_Union[PdfImage, _Mapping]] = ..., pdf_page: _Optional[bytes] = ..., page_quad: _Optional[_Iterable[int]] = ..., dewarped: bool = ..., rules: _Optional[_Iterable[_Union[BoundingBox, _Mapping]]] = ..., layout: _Optional[_Union[PageLayout, _Mapping]] = ...) -> None: ...

class Paragraph(_message.Message):
    __slots__ = ["box", "confidence", "lines", "text"]
    BOX_FIELD_NUMBER: _ClassVar[int]
    CONFIDENCE_FIELD_NUMBER: _ClassVar[int]
    LINES_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    box: BoundingBox
    confidence: float
    lines: _containers.RepeatedCompositeFieldContainer[TextLine]
    text: str
    def __init__(self, text: _Optional[str] = ..., confidence: _Optional[float] = ..., box: _Optional[_Union[BoundingBox, _Mapping]] = ..., lines: _Optional[_Iterable[_Union[TextLine, _Mapping]]] = ...) -> None: ...

class PdfImage(_message.Message):
    __slots__ = ["bits_per_component", "black_is_1", "components", "data", "dpi_x", "dpi_y", "encoding", "height", "palette", "width"]
    BITS_PER_COMPONENT_FIELD_NUMBER: _ClassVar[int]
    BLACK_IS_1_FIELD_NUMBER: _ClassVar[int]
    COMPONENTS_FIELD_NUMBER: _ClassVar[int]
    DATA_FIELD_NUMBER: _ClassVar[int]
    DPI_X_FIELD_NUMBER: _ClassVar[int]
    DPI_Y_FIELD_NUMBER: _ClassVar[int]
    ENCODING_FIELD_NUMBER: _ClassVar[int]
    HEIGHT_FIELD_NUMBER: _ClassVar[int]
    PALETTE_FIELD_NUMBER: _ClassVar[int]
    WIDTH_FIELD_NUMBER: _ClassVar[int]
    bits_per_component: int
    black_is_1: bool
    components: int
    data: bytes
    dpi_x: float
    dpi_y: float
    encoding: PdfImageEncoding
    height: int
    palette: bytes
    width: int
    def __init__(self, encoding: _Optional[_Union[PdfImageEncoding, str]] = ..., width: _Optional[int] = ..., height: _Optional[int] = ..., bits_per_component: _Optional[int] = ..., components: _Optional[int] = ..., palette: _Optional[bytes] = ..., black_is_1: bool = ..., data: _Optional[bytes] = ..., dpi_x: _Optional[float] = ..., dpi_y: _Optional[float] = ...) -> None: ...

class StepCost(_message.Message):
    __slots__ = ["cpu_us", "step"]
    CPU_US_FIELD_NUMBER: _ClassVar[int]
    STEP_FIELD_NUMBER: _ClassVar[int]
    cpu_us: int
    step: str
    def __init__(self, step: _Optional[str] = ..., cpu_us: _Optional[int] = ...) -> None: ...

class Symbol(_message.Message):
    __slots__ = ["box", "confidence", "text"]
    BOX_FIELD_NUMBER: _ClassVar[int]
    CONFIDENCE_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    box: BoundingBox
    confidence: float
    text: str
    def __init__(self, text: _Optional[str] = ..., confidence: _Optional[float] = ..., box: _Optional[_Union[BoundingBox, _Mapping]] = ...) -> None: ...

class TextLine(_message.Message):
    __slots__ = ["baseline", "box", "confidence", "text", "words"]
    BASELINE_FIELD_NUMBER: _ClassVar[int]
    BOX_FIELD_NUMBER: _ClassVar[int]
    CONFIDENCE_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    WORDS_FIELD_NUMBER: _ClassVar[int]
    baseline: _containers.RepeatedScalarFieldContainer[int]
    box: BoundingBox
    confidence: float
    text: str
    words: _containers.RepeatedCompositeFieldContainer[Word]
    def __init__(self, text: _Optional[str] = ..., confidence: _Optional[float] = ..., box: _Optional[_Union[BoundingBox, _Mapping]] = ..., words: _Optional[_Iterable[_Union[Word, _Mapping]]] = ..., baseline: _Optional[_Iterable[int]] = ...) -> None: ...

class Timings(_message.Message):
    __slots__ = ["decode_us", "preprocess_us", "queue_us", "recognize_us", "steps", "total_us"]
    DECODE_US_FIELD_NUMBER: _ClassVar[int]
    PREPROCESS_US_FIELD_NUMBER: _ClassVar[int]
    QUEUE_US_FIELD_NUMBER: _ClassVar[int]
    RECOGNIZE_US_FIELD_NUMBER: _ClassVar[int]
    STEPS_FIELD_NUMBER: _ClassVar[int]
    TOTAL_US_FIELD_NUMBER: _ClassVar[int]
    decode_us: int
    preprocess_us: int
    queue_us: int
    recognize_us: int
    steps: _containers.RepeatedCompositeFieldContainer[StepCost]
    total_us: int
    def __init__(self, decode_us: _Optional[int] = ..., preprocess_us: _Optional[int] = ..., recognize_us: _Optional[int] = ..., total_us: _Optional[int] = ..., queue_us: _Optional[int] = ..., steps: _Optional[_Iterable[_Union[StepCost, _Mapping]]] = ...) -> None: ...

class Word(_message.Message):
    __slots__ = ["box", "candidates", "confidence", "from_dictionary", "symbols", "text"]
    BOX_FIELD_NUMBER: _ClassVar[int]
    CANDIDATES_FIELD_NUMBER: _ClassVar[int]
    CONFIDENCE_FIELD_NUMBER: _ClassVar[int]
    FROM_DICTIONARY_FIELD_NUMBER: _ClassVar[int]
    SYMBOLS_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    box: BoundingBox
    candidates: _containers.RepeatedCompositeFieldContainer[Candidate]
    confidence: float
    from_dictionary: bool
    symbols: _containers.RepeatedCompositeFieldContainer[Symbol]
    text: str
    def __init__(self, text: _Optional[str] = ..., confidence: _Optional[float] = ..., box: _Optional[_Union[BoundingBox, _Mapping]] = ..., candidates: _Optional[_Iterable[_Union[Candidate, _Mapping]]] = ..., symbols: _Optional[_Iterable[_Union[Symbol, _Mapping]]] = ..., from_dictionary: bool = ...) -> None: ...

class BlockType(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []

class TextSource(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []

class DetectedDataKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []

class PdfImageEncoding(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []
