from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar, Iterable as _Iterable, Mapping as _Mapping, Optional as _Optional, Union as _Union

BINARIZATION_DISABLED: Binarization
BINARIZATION_OTSU: Binarization
BINARIZATION_SAUVOLA: Binarization
BINARIZATION_UNSPECIFIED: Binarization
DESCRIPTOR: _descriptor.FileDescriptor
ENGINE_MODE_COMBINED: EngineMode
ENGINE_MODE_LEGACY: EngineMode
ENGINE_MODE_UNSPECIFIED: EngineMode
PAGE_DETECTION_AUTO: PageDetection
PAGE_DETECTION_OFF: PageDetection
PDF_TEXT_LAYER_FORCE_OCR: PdfTextLayer
PDF_TEXT_LAYER_REDO_OCR: PdfTextLayer
PDF_TEXT_LAYER_REPORT: PdfTextLayer
PDF_TEXT_LAYER_SKIP: PdfTextLayer
PSM_AUTO: PageSegmentationMode
PSM_AUTO_ONLY: PageSegmentationMode
PSM_AUTO_OSD: PageSegmentationMode
PSM_CIRCLE_WORD: PageSegmentationMode
PSM_OSD_ONLY: PageSegmentationMode
PSM_RAW_LINE: PageSegmentationMode
PSM_SINGLE_BLOCK: PageSegmentationMode
PSM_SINGLE_BLOCK_VERT_TEXT: PageSegmentationMode
PSM_SINGLE_CHAR: PageSegmentationMode
PSM_SINGLE_COLUMN: PageSegmentationMode
PSM_SINGLE_LINE: PageSegmentationMode
PSM_SINGLE_WORD: PageSegmentationMode
PSM_SPARSE_TEXT: PageSegmentationMode
PSM_SPARSE_TEXT_OSD: PageSegmentationMode
PSM_UNSPECIFIED: PageSegmentationMode
RECOGNITION_LEVEL_ACCURATE: RecognitionLevel
RECOGNITION_LEVEL_BEST: RecognitionLevel
RECOGNITION_LEVEL_FAST: RecognitionLevel
RECOGNITION_LEVEL_UNSPECIFIED: RecognitionLevel

class NormalizedRect(_message.Message):
    __slots__ = ["height", "width", "x", "y"]
    HEIGHT_FIELD_NUMBER: _ClassVar[int]
    WIDTH_FIELD_NUMBER: _ClassVar[int]
    X_FIELD_NUMBER: _ClassVar[int]
    Y_FIELD_NUMBER: _ClassVar[int]
    height: float
    width: float
    x: float
    y: float
    def __init__(self, x: _Optional[float] = ..., y: _Optional[float] = ..., width: _Optional[float] = ..., height: _Optional[float] = ...) -> None: ...

class PageRange(_message.Message):
    __slots__ = ["first", "last"]
    FIRST_FIELD_NUMBER: _ClassVar[int]
    LAST_FIELD_NUMBER: _ClassVar[int]
    first: int
    last: int
    def __init__(self, first: _Optional[int] = ..., last: _Optional[int] = ...) -> None: ...

class RecognitionOptions(_message.Message):
    __slots__ = ["auto_rotate", "binarization", "candidates", "character_whitelist", "custom_words", "deskew", "detect_only", "dpi", "engine", "engine_mode", "include_pdf_page", "language_correction", "languages", "level", "max_page_pixels", "minimum_confidence", "minimum_text_height", "page_detection", "page_ranges", "page_segmentation_mode", "page_timeout_ms", "pdf_text_layer", "region_of_interest", "report_character_boxes"]
    AUTO_ROTATE_FIELD_NUMBER: _ClassVar[int]
    BINARIZATION_FIELD_NUMBER: _ClassVar[int]
    CANDIDATES_FIELD_NUMBER: _ClassVar[int]
    CHARACTER_WHITELIST_FIELD_NUMBER: _ClassVar[int]
    CUSTOM_WORDS_FIELD_NUMBER: _ClassVar[int]
    DESKEW_FIELD_NUMBER: _ClassVar[int]
    DETECT_ONLY_FIELD_NUMBER: _ClassVar[int]
    DPI_FIELD_NUMBER: _ClassVar[int]
    ENGINE_FIELD_NUMBER: _ClassVar[int]
    ENGINE_MODE_FIELD_NUMBER: _ClassVar[int]
    INCLUDE_PDF_PAGE_FIELD_NUMBER: _ClassVar[int]
    LANGUAGES_FIELD_NUMBER: _ClassVar[int]
    LANGUAGE_CORRECTION_FIELD_NUMBER: _ClassVar[int]
    LEVEL_FIELD_NUMBER: _ClassVar[int]
    MAX_PAGE_PIXELS_FIELD_NUMBER: _ClassVar[int]
    MINIMUM_CONFIDENCE_FIELD_NUMBER: _ClassVar[int]
    MINIMUM_TEXT_HEIGHT_FIELD_NUMBER: _ClassVar[int]
    PAGE_DETECTION_FIELD_NUMBER: _ClassVar[int]
    PAGE_RANGES_FIELD_NUMBER: _ClassVar[int]
    PAGE_SEGMENTATION_MODE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TIMEOUT_MS_FIELD_NUMBER: _ClassVar[int]
    PDF_TEXT_LAYER_FIELD_NUMBER: _ClassVar[int]
    REGION_OF_INTEREST_FIELD_NUMBER: _ClassVar[int]
    REPORT_CHARACTER_BOXES_FIELD_NUMBER: _ClassVar[int]
    auto_rotate: bool
    binarization: Binarization
    candidates: int
    character_whitelist: str
    custom_words: _containers.RepeatedScalarFieldContainer[str]
    deskew: bool
    detect_only: bool
    dpi: int
    engine: str
    engine_mode: EngineMode
    include_pdf_page: bool
    language_correction: bool
    languages: str
    level: RecognitionLevel
    max_page_pixels: int
    minimum_confidence: float
    minimum_text_height: float
    page_detection: PageDetection
    page_ranges: _containers.RepeatedCompositeFieldContainer[PageRange]
    page_segmentation_mode: PageSegmentationMode
    page_timeout_ms: int
    pdf_text_layer: PdfTextLayer
    region_of_interest: NormalizedRect
    report_character_boxes: bool
    def __init__(self, languages: _Optional[str] = ..., level: _Optional[_Union[RecognitionLevel, str]] = ..., language_correction: bool = ..., page_segmentation_mode: _Optional[_Union[PageSegmentationMode, str]] = ..., dpi: _Optional[int] = ..., candidates: _Optional[int] = ..., minimum_confidence: _Optional[float] = ..., character_whitelist: _Optional[str] = ..., region_of_interest: _Optional[_Union[NormalizedRect, _Mapping]] = ..., minimum_text_height: _Optional[float] = ..., detect_only: bool = ..., report_character_boxes: bool = ..., deskew: bool = ..., auto_rotate: bool = ..., binarization: _Optional[_Union[Binarization, str]] = ..., page_timeout_ms: _Optional[int] = ..., page_ranges: _Optional[_Iterable[_Union[PageRange, _Mapping]]] = ..., custom_words: _Optional[_Iterable[str]] = ..., max_page_pixels: _Optional[int] = ..., pdf_text_layer: _Optional[_Union[PdfTextLayer, str]] = ..., include_pdf_page: bool = ..., engine_mode: _Optional[_Union[EngineMode, str]] = ..., page_detection: _Optional[_Union[PageDetection, str]] = ..., engine: _Optional[str] = ...) -> None: ...

class RecognitionLevel(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []

class PdfTextLayer(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []

class EngineMode(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []

class PageDetection(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []

class Binarization(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []

class PageSegmentationMode(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []
