"""A tool's metadata read once per process: the argument model and JSON schema the MCP SDK
builds from a tool function's signature (pydantic models, ~30 ms a tool, ~0.4 s for the 14
tools of a server). Every server a process builds registers the same tool functions, closed
over another Omoide; the metadata depends only on the function's code, signature, defaults
and docstring and on the registration's options, which key the cache. The tool registered is
a copy bound to the new function (the SDK calls ``tool.fn`` with the validated arguments).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from mcp.server.mcpserver.tools import Tool

__all__ = ["tool_for"]

_TEMPLATES: dict[tuple[Any, ...], Tool] = {}
_LOCK = threading.Lock()


def _key(fn: Callable[..., Any], options: dict[str, Any]) -> tuple[Any, ...]:
    """What the metadata is read from; anything that may differ between two functions of one
    code (defaults, annotations, docstring) is in it, so a miss is the worst a new case gets."""
    annotations = options.get("annotations")
    return (
        getattr(fn, "__code__", fn),
        repr(getattr(fn, "__defaults__", None)),
        repr(getattr(fn, "__kwdefaults__", None)),
        repr(getattr(fn, "__annotations__", None)),
        fn.__doc__,
        annotations.model_dump_json() if annotations is not None else None,
        repr(sorted((k, repr(v)) for k, v in options.items() if k != "annotations")),
    )


def tool_for(fn: Callable[..., Any], **options: Any) -> Tool:
    """``Tool.from_function(fn, **options)``, its metadata built once per key."""
    key = _key(fn, options)
    with _LOCK:
        template = _TEMPLATES.get(key)
        if template is None:
            template = _TEMPLATES[key] = Tool.from_function(fn, **options)
    return template.model_copy(update={"fn": fn})
