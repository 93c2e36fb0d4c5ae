from . import job_pb2 as _job_pb2
from . import options_pb2 as _options_pb2
from . import page_pb2 as _page_pb2
from . import status_pb2 as _status_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar, Iterable as _Iterable, Mapping as _Mapping, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class CancelTask(_message.Message):
    __slots__ = ["job_id", "page_index"]
    JOB_ID_FIELD_NUMBER: _ClassVar[int]
    PAGE_INDEX_FIELD_NUMBER: _ClassVar[int]
    job_id: str
    page_index: int
    def __init__(self, job_id: _Optional[str] = ..., page_index: _Optional[int] = ...) -> None: ...

class CoordinatorMessage(_message.Message):
    __slots__ = ["cancel", "disconnect", "heartbeat", "task", "welcome"]
    CANCEL_FIELD_NUMBER: _ClassVar[int]
    DISCONNECT_FIELD_NUMBER: _ClassVar[int]
    HEARTBEAT_FIELD_NUMBER: _ClassVar[int]
    TASK_FIELD_NUMBER: _ClassVar[int]
    WELCOME_FIELD_NUMBER: _ClassVar[int]
    cancel: CancelTask
    disconnect: Disconnect
    heartbeat: Heartbeat
    task: PageTask
    welcome: Welcome
    def __init__(self, task: _Optional[_Union[PageTask, _Mapping]] = ..., heartbeat: _Optional[_Union[Heartbeat, _Mapping]] = ..., cancel: _Optional[_Union[CancelTask, _Mapping]] = ..., disconnect: _Optional[_Union[Disconnect, _Mapping]] = ..., welcome: _Optional[_Union[Welcome, _Mapping]] = ...) -> None: ...

class Disconnect(_message.Message):
    __slots__ = ["reason"]
    REASON_FIELD_NUMBER: _ClassVar[int]
    reason: str
    def __init__(self, reason: _Optional[str] = ...) -> None: ...

class Heartbeat(_message.Message):
    __slots__ = ["busy", "sequence"]
    BUSY_FIELD_NUMBER: _ClassVar[int]
    SEQUENCE_FIELD_NUMBER: _ClassVar[int]
    busy: int
    sequence: int
    def __init__(self, sequence: _Optional[int] = ..., busy: _Optional[int] = ...) -> None: ...

class PageTask(_message.Message):
    __slots__ = ["attempt", "content", "file", "file_page", "format", "job_id", "options", "page_index", "queued_us", "remaining_ms"]
    ATTEMPT_FIELD_NUMBER: _ClassVar[int]
    CONTENT_FIELD_NUMBER: _ClassVar[int]
    FILE_FIELD_NUMBER: _ClassVar[int]
    FILE_PAGE_FIELD_NUMBER: _ClassVar[int]
    FORMAT_FIELD_NUMBER: _ClassVar[int]
    JOB_ID_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    PAGE_INDEX_FIELD_NUMBER: _ClassVar[int]
    QUEUED_US_FIELD_NUMBER: _ClassVar[int]
    REMAINING_MS_FIELD_NUMBER: _ClassVar[int]
    attempt: int
    content: bytes
    file: str
    file_page: int
    format: _job_pb2.ImageFormat
    job_id: str
    options: _options_pb2.RecognitionOptions
    page_index: int
    queued_us: int
    remaining_ms: int
    def __init__(self, job_id: _Optional[str] = ..., page_index: _Optional[int] = ..., attempt: _Optional[int] = ..., file: _Optional[str] = ..., file_page: _Optional[int] = ..., content: _Optional[bytes] = ..., format: _Optional[_Union[_job_pb2.ImageFormat, str]] = ..., options: _Optional[_Union[_options_pb2.RecognitionOptions, _Mapping]] = ..., remaining_ms: _Optional[int] = ..., queued_us: _Optional[int] = ...) -> None: ...

class Ready(_message.Message):
    __slots__ = ["engines", "heartbeat_interval_ms", "hostname", "labels", "languages", "max_tasks", "slots", "version", "worker_uid"]
    class LabelsEntry(_message.Message):
        __slots__ = ["key", "value"]
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    ENGINES_FIELD_NUMBER: _ClassVar[int]
    HEARTBEAT_INTERVAL_MS_FIELD_NUMBER: _ClassVar[int]
    HOSTNAME_FIELD_NUMBER: _ClassVar[int]
    LABELS_FIELD_NUMBER: _ClassVar[int]
    LANGUAGES_FIELD_NUMBER: _ClassVar[int]
    MAX_TASKS_FIELD_NUMBER: _ClassVar[int]
    SLOTS_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    WORKER_UID_FIELD_NUMBER: _ClassVar[int]
    engines: _containers.RepeatedScalarFieldContainer[str]
    heartbeat_interval_ms: int
    hostname: str
    labels: _containers.ScalarMap[str, str]
    languages: _containers.RepeatedScalarFieldContainer[str]
    max_tasks: int
    slots: int
    version: str
    worker_uid: int
    def __init__(self, worker_uid: _Optional[int] = ..., slots: _Optional[int] = ..., languages: _Optional[_Iterable[str]] = ..., version: _Optional[str] = ..., heartbeat_interval_ms: _Optional[int] = ..., hostname: _Optional[str] = ..., labels: _Optional[_Mapping[str, str]] = ..., max_tasks: _Optional[int] = ..., engines: _Optional[_Iterable[str]] = ...) -> None: ...

class TaskResult(_message.Message):
    __slots__ = ["attempt", "error", "job_id", "page_index", "result"]
    ATTEMPT_FIELD_NUMBER: _ClassVar[int]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    JOB_ID_FIELD_NUMBER: _ClassVar[int]
    PAGE_INDEX_FIELD_NUMBER: _ClassVar[int]
    RESULT_FIELD_NUMBER: _ClassVar[int]
    attempt: int
    error: _status_pb2.Status
    job_id: str
    page_index: int
    result: _page_pb2.PageResult
    def __init__(self, job_id: _Optional[str] = ..., page_index: _Optional[int] = ..., attempt: _Optional[int] = ..., result: _Optional[_Union[_page_pb2.PageResult, _Mapping]] = ..., error: _Optional[_Union[_status_pb2.Status, _Mapping]] = ...) -> None: ...

class Welcome(_message.Message):
    __slots__ = ["heartbeat_interval_ms", "liveness", "slots"]
    HEARTBEAT_INTERVAL_MS_FIELD_NUMBER: _ClassVar[int]
    LIVENESS_FIELD_NUMBER: _ClassVar[int]
    SLOTS_FIELD_NUMBER: _ClassVar[int]
    heartbeat_interval_ms: int
    liveness: int
    slots: int
    def __init__(self, heartbeat_interval_ms: _Optional[int] = ..., liveness: _Optional[int] = ..., slots: _Optional[int] = ...) -> None: ...

class WorkerMessage(_message.Message):
    __slots__ = ["disconnect", "heartbeat", "ready", "result"]
    DISCONNECT_FIELD_NUMBER: _ClassVar[int]
    HEARTBEAT_FIELD_NUMBER: _ClassVar[int]
    READY_FIELD_NUMBER: _ClassVar[int]
    RESULT_FIELD_NUMBER: _ClassVar[int]
    disconnect: Disconnect
    heartbeat: Heartbeat
    ready: Ready
    result: TaskResult
    def __init__(self, ready: _Optional[_Union[Ready, _Mapping]] = ..., heartbeat: _Optional[_Union[Heartbeat, _Mapping]] = ..., result: _Optional[_Union[TaskResult, _Mapping]] = ..., disconnect: _Optional[_Union[Disconnect, _Mapping]] = ...) -> None: ...
