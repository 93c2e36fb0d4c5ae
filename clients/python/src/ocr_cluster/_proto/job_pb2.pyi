from . import options_pb2 as _options_pb2
from . import page_pb2 as _page_pb2
from . import status_pb2 as _status_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar, Iterable as _Iterable, Mapping as _Mapping, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor
IMAGE_FORMAT_BMP: ImageFormat
IMAGE_FORMAT_GIF: ImageFormat
IMAGE_FORMAT_JP2: ImageFormat
IMAGE_FORMAT_JPEG: ImageFormat
IMAGE_FORMAT_PDF: ImageFormat
IMAGE_FORMAT_PNG: ImageFormat
IMAGE_FORMAT_PNM: ImageFormat
IMAGE_FORMAT_TIFF: ImageFormat
IMAGE_FORMAT_UNSPECIFIED: ImageFormat
IMAGE_FORMAT_WEBP: ImageFormat
JOB_STATE_CANCELLED: JobState
JOB_STATE_EXPIRED: JobState
JOB_STATE_FAILED: JobState
JOB_STATE_PARTIAL: JobState
JOB_STATE_QUEUED: JobState
JOB_STATE_RUNNING: JobState
JOB_STATE_SUCCEEDED: JobState
JOB_STATE_UNSPECIFIED: JobState
PAGE_STATE_CANCELLED: PageState
PAGE_STATE_DISPATCHED: PageState
PAGE_STATE_DONE: PageState
PAGE_STATE_FAILED: PageState
PAGE_STATE_PENDING: PageState
PAGE_STATE_UNSPECIFIED: PageState

class InputFile(_message.Message):
    __slots__ = ["content", "format", "name"]
    CONTENT_FIELD_NUMBER: _ClassVar[int]
    FORMAT_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    content: bytes
    format: ImageFormat
    name: str
    def __init__(self, name: _Optional[str] = ..., content: _Optional[bytes] = ..., format: _Optional[_Union[ImageFormat, str]] = ...) -> None: ...

class Job(_message.Message):
    __slots__ = ["created_unix_ms", "files", "finished_unix_ms", "job_id", "job_key", "options", "page_count", "page_states", "pages_done", "pages_failed", "priority", "state", "status"]
    CREATED_UNIX_MS_FIELD_NUMBER: _ClassVar[int]
    FILES_FIELD_NUMBER: _ClassVar[int]
    FINISHED_UNIX_MS_FIELD_NUMBER: _ClassVar[int]
    JOB_ID_FIELD_NUMBER: _ClassVar[int]
    JOB_KEY_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    PAGES_DONE_FIELD_NUMBER: _ClassVar[int]
    PAGES_FAILED_FIELD_NUMBER: _ClassVar[int]
    PAGE_COUNT_FIELD_NUMBER: _ClassVar[int]
    PAGE_STATES_FIELD_NUMBER: _ClassVar[int]
    PRIORITY_FIELD_NUMBER: _ClassVar[int]
    STATE_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    created_unix_ms: int
    files: _containers.RepeatedScalarFieldContainer[str]
    finished_unix_ms: int
    job_id: str
    job_key: str
    options: _options_pb2.RecognitionOptions
    page_count: int
    page_states: _containers.RepeatedScalarFieldContainer[PageState]
    pages_done: int
    pages_failed: int
    priority: int
    state: JobState
    status: _status_pb2.Status
    def __init__(self, job_id: _Optional[str] = ..., job_key: _Optional[str] = ..., state: _Optional[_Union[JobState, str]] = ..., page_count: _Optional[int] = ..., pages_done: _Optional[int] = ..., pages_failed: _Optional[int] = ..., priority: _Optional[int] = ..., created_unix_ms: _Optional[int] = ..., finished_unix_ms: _Optional[int] = ..., files: _Optional[_Iterable[str]] = ..., status: _Optional[_Union[_status_pb2.Status, _Mapping]] = ..., page_states: _Optional[_Iterable[_Union[PageState, str]]] = ..., options: _Optional[_Union[_options_pb2.RecognitionOptions, _Mapping]] = ...) -> None: ...

class JobEvent(_message.Message):
    __slots__ = ["finished", "job_id", "page_completed", "page_failed", "progress", "sequence"]
    FINISHED_FIELD_NUMBER: _ClassVar[int]
    JOB_ID_FIELD_NUMBER: _ClassVar[int]
    PAGE_COMPLETED_FIELD_NUMBER: _ClassVar[int]
    PAGE_FAILED_FIELD_NUMBER: _ClassVar[int]
    PROGRESS_FIELD_NUMBER: _ClassVar[int]
    SEQUENCE_FIELD_NUMBER: _ClassVar[int]
    finished: JobFinished
    job_id: str
    page_completed: PageCompleted
    page_failed: PageFailed
    progress: JobProgress
    sequence: int
    def __init__(self, job_id: _Optional[str] = ..., sequence: _Optional[int] = ..., page_completed: _Optional[_Union[PageCompleted, _Mapping]] = ..., page_failed: _Optional[_Union[PageFailed, _Mapping]] = ..., progress: _Optional[_Union[JobProgress, _Mapping]] = ..., finished: _Optional[_Union[JobFinished, _Mapping]] = ...) -> None: ...

class JobFinished(_message.Message):
    __slots__ = ["pages_done", "pages_failed", "state", "status"]
    PAGES_DONE_FIELD_NUMBER: _ClassVar[int]
    PAGES_FAILED_FIELD_NUMBER: _ClassVar[int]
    STATE_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    pages_done: int
    pages_failed: int
    state: JobState
    status: _status_pb2.Status
    def __init__(self, state: _Optional[_Union[JobState, str]] = ..., status: _Optional[_Union[_status_pb2.Status, _Mapping]] = ..., pages_done: _Optional[int] = ..., pages_failed: _Optional[int] = ...) -> None: ...

class JobProgress(_message.Message):
    __slots__ = ["page_count", "pages_done", "pages_failed", "pages_per_second", "pages_running"]
    PAGES_DONE_FIELD_NUMBER: _ClassVar[int]
    PAGES_FAILED_FIELD_NUMBER: _ClassVar[int]
    PAGES_PER_SECOND_FIELD_NUMBER: _ClassVar[int]
    PAGES_RUNNING_FIELD_NUMBER: _ClassVar[int]
    PAGE_COUNT_FIELD_NUMBER: _ClassVar[int]
    page_count: int
    pages_done: int
    pages_failed: int
    pages_per_second: float
    pages_running: int
    def __init__(self, page_count: _Optional[int] = ..., pages_done: _Optional[int] = ..., pages_failed: _Optional[int] = ..., pages_running: _Optional[int] = ..., pages_per_second: _Optional[float] = ...) -> None: ...

class PageCompleted(_message.Message):
    __slots__ = ["result"]
    RESULT_FIELD_NUMBER: _ClassVar[int]
    result: _page_pb2.PageResult
    def __init__(self, result: _Optional[_Union[_page_pb2.PageResult, _Mapping]] = ...) -> None: ...

class PageFailed(_message.Message):
    __slots__ = ["attempts", "file", "file_page", "page_index", "status"]
    ATTEMPTS_FIELD_NUMBER: _ClassVar[int]
    FILE_FIELD_NUMBER: _ClassVar[int]
    FILE_PAGE_FIELD_NUMBER: _ClassVar[int]
    PAGE_INDEX_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    attempts: int
    file: str
    file_page: int
    page_index: int
    status: _status_pb2.Status
    def __init__(self, page_index: _Optional[int] = ..., file: _Optional[str] = ..., file_page: _Optional[int] = ..., status: _Optional[_Union[_status_pb2.Status, _Mapping]] = ..., attempts: _Optional[int] = ...) -> None: ...

class ImageFormat(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []

class JobState(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []

class PageState(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []
