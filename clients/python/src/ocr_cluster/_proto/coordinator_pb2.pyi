from . import job_pb2 as _job_pb2
from . import options_pb2 as _options_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar, Iterable as _Iterable, Mapping as _Mapping, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class CancelJobRequest(_message.Message):
    __slots__ = ["job_id"]
    JOB_ID_FIELD_NUMBER: _ClassVar[int]
    job_id: str
    def __init__(self, job_id: _Optional[str] = ...) -> None: ...

class ClusterStatusRequest(_message.Message):
    __slots__ = []
    def __init__(self) -> None: ...

class ClusterStatusResponse(_message.Message):
    __slots__ = ["active_jobs", "busy_slots", "pages_done", "pages_per_second", "queue_depth", "total_slots", "uptime_ms", "workers"]
    ACTIVE_JOBS_FIELD_NUMBER: _ClassVar[int]
    BUSY_SLOTS_FIELD_NUMBER: _ClassVar[int]
    PAGES_DONE_FIELD_NUMBER: _ClassVar[int]
    PAGES_PER_SECOND_FIELD_NUMBER: _ClassVar[int]
    QUEUE_DEPTH_FIELD_NUMBER: _ClassVar[int]
    TOTAL_SLOTS_FIELD_NUMBER: _ClassVar[int]
    UPTIME_MS_FIELD_NUMBER: _ClassVar[int]
    WORKERS_FIELD_NUMBER: _ClassVar[int]
    active_jobs: int
    busy_slots: int
    pages_done: int
    pages_per_second: float
    queue_depth: int
    total_slots: int
    uptime_ms: int
    workers: _containers.RepeatedCompositeFieldContainer[WorkerInfo]
    def __init__(self, workers: _Optional[_Iterable[_Union[WorkerInfo, _Mapping]]] = ..., total_slots: _Optional[int] = ..., busy_slots: _Optional[int] = ..., queue_depth: _Optional[int] = ..., active_jobs: _Optional[int] = ..., pages_per_second: _Optional[float] = ..., pages_done: _Optional[int] = ..., uptime_ms: _Optional[int] = ...) -> None: ...

class DeleteJobRequest(_message.Message):
    __slots__ = ["job_id"]
    JOB_ID_FIELD_NUMBER: _ClassVar[int]
    job_id: str
    def __init__(self, job_id: _Optional[str] = ...) -> None: ...

class DeleteJobResponse(_message.Message):
    __slots__ = []
    def __init__(self) -> None: ...

class GetJobRequest(_message.Message):
    __slots__ = ["include_page_states", "job_id"]
    INCLUDE_PAGE_STATES_FIELD_NUMBER: _ClassVar[int]
    JOB_ID_FIELD_NUMBER: _ClassVar[int]
    include_page_states: bool
    job_id: str
    def __init__(self, job_id: _Optional[str] = ..., include_page_states: bool = ...) -> None: ...

class HealthCheckRequest(_message.Message):
    __slots__ = ["service"]
    SERVICE_FIELD_NUMBER: _ClassVar[int]
    service: str
    def __init__(self, service: _Optional[str] = ...) -> None: ...

class HealthCheckResponse(_message.Message):
    __slots__ = ["max_message_bytes", "status"]
    class ServingStatus(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
        __slots__ = []
    MAX_MESSAGE_BYTES_FIELD_NUMBER: _ClassVar[int]
    NOT_SERVING: HealthCheckResponse.ServingStatus
    SERVICE_UNKNOWN: HealthCheckResponse.ServingStatus
    SERVING: HealthCheckResponse.ServingStatus
    STATUS_FIELD_NUMBER: _ClassVar[int]
    UNKNOWN: HealthCheckResponse.ServingStatus
    max_message_bytes: int
    status: HealthCheckResponse.ServingStatus
    def __init__(self, status: _Optional[_Union[HealthCheckResponse.ServingStatus, str]] = ..., max_message_bytes: _Optional[int] = ...) -> None: ...

class ListJobsRequest(_message.Message):
    __slots__ = ["limit", "page_token", "states"]
    LIMIT_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    STATES_FIELD_NUMBER: _ClassVar[int]
    limit: int
    page_token: str
    states: _containers.RepeatedScalarFieldContainer[_job_pb2.JobState]
    def __init__(self, limit: _Optional[int] = ..., states: _Optional[_Iterable[_Union[_job_pb2.JobState, str]]] = ..., page_token: _Optional[str] = ...) -> None: ...

class ListJobsResponse(_message.Message):
    __slots__ = ["jobs", "next_page_token"]
    JOBS_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    jobs: _containers.RepeatedCompositeFieldContainer[_job_pb2.Job]
    next_page_token: str
    def __init__(self, jobs: _Optional[_Iterable[_Union[_job_pb2.Job, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class SubmitJobRequest(_message.Message):
    __slots__ = ["callback_url", "files", "job_key", "labels", "max_attempts", "options", "priority", "timeout_ms"]
    class LabelsEntry(_message.Message):
        __slots__ = ["key", "value"]
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    CALLBACK_URL_FIELD_NUMBER: _ClassVar[int]
    FILES_FIELD_NUMBER: _ClassVar[int]
    JOB_KEY_FIELD_NUMBER: _ClassVar[int]
    LABELS_FIELD_NUMBER: _ClassVar[int]
    MAX_ATTEMPTS_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    PRIORITY_FIELD_NUMBER: _ClassVar[int]
    TIMEOUT_MS_FIELD_NUMBER: _ClassVar[int]
    callback_url: str
    files: _containers.RepeatedCompositeFieldContainer[_job_pb2.InputFile]
    job_key: str
    labels: _containers.ScalarMap[str, str]
    max_attempts: int
    options: _options_pb2.RecognitionOptions
    priority: int
    timeout_ms: int
    def __init__(self, files: _Optional[_Iterable[_Union[_job_pb2.InputFile, _Mapping]]] = ..., options: _Optional[_Union[_options_pb2.RecognitionOptions, _Mapping]] = ..., job_key: _Optional[str] = ..., priority: _Optional[int] = ..., timeout_ms: _Optional[int] = ..., max_attempts: _Optional[int] = ..., labels: _Optional[_Mapping[str, str]] = ..., callback_url: _Optional[str] = ...) -> None: ...

class SubmitJobResponse(_message.Message):
    __slots__ = ["existing", "job_id", "page_count"]
    EXISTING_FIELD_NUMBER: _ClassVar[int]
    JOB_ID_FIELD_NUMBER: _ClassVar[int]
    PAGE_COUNT_FIELD_NUMBER: _ClassVar[int]
    existing: bool
    job_id: str
    page_count: int
    def __init__(self, job_id: _Optional[str] = ..., page_count: _Optional[int] = ..., existing: bool = ...) -> None: ...

class WatchJobRequest(_message.Message):
    __slots__ = ["from_page", "job_id"]
    FROM_PAGE_FIELD_NUMBER: _ClassVar[int]
    JOB_ID_FIELD_NUMBER: _ClassVar[int]
    from_page: int
    job_id: str
    def __init__(self, job_id: _Optional[str] = ..., from_page: _Optional[int] = ...) -> None: ...

class WorkerInfo(_message.Message):
    __slots__ = ["address", "busy", "engines", "hostname", "labels", "languages", "last_seen_ms_ago", "pages_done", "slots", "uid", "version"]
    class LabelsEntry(_message.Message):
        __slots__ = ["key", "value"]
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    ADDRESS_FIELD_NUMBER: _ClassVar[int]
    BUSY_FIELD_NUMBER: _ClassVar[int]
    ENGINES_FIELD_NUMBER: _ClassVar[int]
    HOSTNAME_FIELD_NUMBER: _ClassVar[int]
    LABELS_FIELD_NUMBER: _ClassVar[int]
    LANGUAGES_FIELD_NUMBER: _ClassVar[int]
    LAST_SEEN_MS_AGO_FIELD_NUMBER: _ClassVar[int]
    PAGES_DONE_FIELD_NUMBER: _ClassVar[int]
    SLOTS_FIELD_NUMBER: _ClassVar[int]
    UID_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    address: str
    busy: int
    engines: _containers.RepeatedScalarFieldContainer[str]
    hostname: str
    labels: _containers.ScalarMap[str, str]
    languages: _containers.RepeatedScalarFieldContainer[str]
    last_seen_ms_ago: int
    pages_done: int
    slots: int
    uid: int
    version: str
    def __init__(self, uid: _Optional[int] = ..., address: _Optional[str] = ..., slots: _Optional[int] = ..., busy: _Optional[int] = ..., languages: _Optional[_Iterable[str]] = ..., version: _Optional[str] = ..., pages_done: _Optional[int] = ..., last_seen_ms_ago: _Optional[int] = ..., hostname: _Optional[str] = ..., labels: _Optional[_Mapping[str, str]] = ..., engines: _Optional[_Iterable[str]] = ...) -> None: ...
