"""The one place where the engine's errors meet the caller."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from omoide.engine.errors import EngineValueError
from omoide.errors import InvalidInput


@contextmanager
def engine_input() -> Iterator[None]:
    """Around an engine call that reads a caller's value: the engine's own
    :class:`~omoide.engine.errors.EngineValueError` becomes ``InvalidInput`` (422 / a tool
    error) with the engine's message and field."""
    try:
        yield
    except EngineValueError as exc:
        raise InvalidInput(exc.message, field=exc.field) from exc
