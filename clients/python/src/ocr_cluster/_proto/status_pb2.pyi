from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar, Mapping as _Mapping, Optional as _Optional, Union as _Union

ABORTED: StatusCode
ALREADY_EXISTS: StatusCode
CANCELLED: StatusCode
DATA_LOSS: StatusCode
DEADLINE_EXCEEDED: StatusCode
DESCRIPTOR: _descriptor.FileDescriptor
FAILED_PRECONDITION: StatusCode
INTERNAL: StatusCode
INVALID_ARGUMENT: StatusCode
NOT_FOUND: StatusCode
OK: StatusCode
OUT_OF_RANGE: StatusCode
PERMISSION_DENIED: StatusCode
RESOURCE_EXHAUSTED: StatusCode
UNAUTHENTICATED: StatusCode
UNAVAILABLE: StatusCode
UNIMPLEMENTED: StatusCode
UNKNOWN: StatusCode

class Status(_message.Message):
    __slots__ = ["code", "details", "file", "message", "page_index"]
    class DetailsEntry(_message.Message):
        __slots__ = ["key", "value"]
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    CODE_FIELD_NUMBER: _ClassVar[int]
    DETAILS_FIELD_NUMBER: _ClassVar[int]
    FILE_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    PAGE_INDEX_FIELD_NUMBER: _ClassVar[int]
    code: StatusCode
    details: _containers.ScalarMap[str, str]
    file: str
    message: str
    page_index: int
    def __init__(self, code: _Optional[_Union[StatusCode, str]] = ..., message: _Optional[str] = ..., file: _Optional[str] = ..., page_index: _Optional[int] = ..., details: _Optional[_Mapping[str, str]] = ...) -> None: ...

class StatusCode(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []
