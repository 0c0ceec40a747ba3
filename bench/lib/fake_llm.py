"""An in-process stand-in for the LLM port where a benchmark measures everything but the LLM."""

from __future__ import annotations

import re
from collections.abc import Sequence

from omoide.llm.base import Message

__all__ = ["FakeSummariser"]


class FakeSummariser:
    """The LLM port, answering a summary request with the opening of each transcript line."""

    name = "fake:lead"

    def __init__(self) -> None:
        self.calls = 0

    def complete(
        self,
        messages: Sequence[Message],
        *,
        system: str | None = None,
        max_tokens: int = 512,
        temperature: float = 0.0,
        json_mode: bool = False,
    ) -> str:
        self.calls += 1
        limit = int(re.search(r"(\d+)", system or "300").group(1))  # type: ignore[union-attr]
        lines = [
            line.split(": ", 1)[-1] for line in messages[-1].content.splitlines() if ": " in line
        ]
        return " ".join(line.split(". ")[0][:80] for line in lines)[:limit]
