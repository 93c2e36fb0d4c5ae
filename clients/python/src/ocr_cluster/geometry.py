"""Boxes in page pixels, shared by the document's words and its structure."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Optional

#: A decoded JSON object.
JSON = Mapping[str, Any]


@dataclass(frozen=True)
class Box:
    """A rectangle in pixels, top-left origin."""
    x: int
    y: int
    width: int
    height: int

    @classmethod
    def from_json(cls, data: Optional[JSON]) -> "Box":
        data = data or {}
        return cls(int(data.get("x", 0)), int(data.get("y", 0)), int(data.get("width", 0)), int(data.get("height", 0)))
