from . import status_pb2 as _status_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar, Mapping as _Mapping, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class RpcHeader(_message.Message):
    __slots__ = ["call_id", "kind", "metadata", "method", "status", "timeout_ms"]
    class Kind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
        __slots__ = []
    class MetadataEntry(_message.Message):
        __slots__ = ["key", "value"]
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    CALL_ID_FIELD_NUMBER: _ClassVar[int]
    CANCEL: RpcHeader.Kind
    KIND_FIELD_NUMBER: _ClassVar[int]
    KIND_UNSPECIFIED: RpcHeader.Kind
    METADATA_FIELD_NUMBER: _ClassVar[int]
    METHOD_FIELD_NUMBER: _ClassVar[int]
    REQUEST: RpcHeader.Kind
    RESPONSE: RpcHeader.Kind
    STATUS_FIELD_NUMBER: _ClassVar[int]
    STREAM_END: RpcHeader.Kind
    STREAM_MESSAGE: RpcHeader.Kind
    TIMEOUT_MS_FIELD_NUMBER: _ClassVar[int]
    call_id: int
    kind: RpcHeader.Kind
    metadata: _containers.ScalarMap[str, str]
    method: str
    status: _status_pb2.Status
    timeout_ms: int
    def __init__(self, call_id: _Optional[int] = ..., method: _Optional[str] = ..., kind: _Optional[_Union[RpcHeader.Kind, str]] = ..., status: _Optional[_Union[_status_pb2.Status, _Mapping]] = ..., timeout_ms: _Optional[int] = ..., metadata: _Optional[_Mapping[str, str]] = ...) -> None: ...
