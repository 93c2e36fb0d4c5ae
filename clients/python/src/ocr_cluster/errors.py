"""The one error type of the client: a coordinator's `Status`, or a transport failure."""
from __future__ import annotations

from typing import Any, Mapping, Optional


class OCRClusterError(Exception):
    """A call that failed.

    `code` is the gRPC status code name the coordinator gave (`INVALID_ARGUMENT`,
    `NOT_FOUND`, `RESOURCE_EXHAUSTED`, ...), or `UNAVAILABLE` when it could not be reached;
    `file` and `page_index` (0-based) name the input the error is about, when it is about one;
    `http_status` is the HTTP status of the answer (0 when there was none).
    """

    def __init__(self, code: str, message: str, *, file: Optional[str] = None, page_index: Optional[int] = None,
                 details: Optional[Mapping[str, str]] = None, http_status: int = 0) -> None:
        self.code = code
        self.message = message
        self.file = file
        self.page_index = page_index
        self.details: dict[str, str] = dict(details or {})
        self.http_status = http_status
        where = "".join([f" ({file}" if file else "", f", page {page_index + 1}" if page_index is not None else "",
                         ")" if file else ""])
        super().__init__(f"{code}: {message}{where}")

    @classmethod
    def from_status(cls, status: Mapping[str, Any], http_status: int = 0) -> "OCRClusterError":
        """From a `Status` object as the API writes it."""
        page = status.get("pageIndex")  # null over HTTP, -1 on the wire: about no page
        return cls(str(status.get("code", "UNKNOWN")), str(status.get("message", "")), file=status.get("file") or None,
                   page_index=int(page) if page is not None and int(page) >= 0 else None,
                   details={str(k): str(v) for k, v in (status.get("details") or {}).items()}, http_status=http_status)
