"""The stage-4 summary's cool-down, on a clock the test moves: a failed call is not repeated
for ``cooldown_s``, cached summaries are still served meanwhile, the LLM is asked again once it
is over, a request already waiting on its call when the cool-down starts stops waiting, and a
cool-down of 0 asks every time."""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from typing import Any

from omoide.config import PersonaSettings
from omoide.errors import UpstreamUnavailable
from omoide.llm.base import Message
from omoide.service.chat_summary import Compressor

CFG = PersonaSettings(chat_budget_tokens=900, keep_recent=2)


class ScriptedLLM:
    def __init__(self, *answers: str | None) -> None:
        self.answers = list(answers)  # None: the call fails
        self.calls = 0

    def complete(self, messages: Sequence[Message], **_: Any) -> str:
        self.calls += 1
        answer = self.answers.pop(0)
        if answer is None:
            raise UpstreamUnavailable("the LLM timed out")
        return answer


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def chat(turns: int) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for i in range(turns):
        out += [
            {"role": "user", "content": f"On day {i} we painted the boat shed. " * 12},
            {"role": "assistant", "content": "Nice work. " * 12},
        ]
    return out


def test_a_failed_summary_call_is_not_repeated_during_the_cooldown() -> None:
    llm, clock = ScriptedLLM(None, "They painted the boat shed.", "More painting."), Clock()
    compressor = Compressor(llm, cooldown_s=60, monotonic=clock)  # type: ignore[arg-type]
    assert compressor.compress(chat(8), CFG).summary == "failed"
    clock.now += 59
    for turns in (9, 12, 16):
        cooled = compressor.compress(chat(turns), CFG)
        assert cooled.summary == "cooldown"
        assert cooled.compaction.stage == 3
    assert llm.calls == 1
    clock.now += 2  # over: the LLM is asked again, and a success ends the cool-down
    assert compressor.compress(chat(16), CFG).summary == "llm"
    assert compressor.compress(chat(16), CFG).summary == "cached"
    assert compressor.compress(chat(20), CFG).summary == "llm"
    assert llm.calls == 3


def test_no_cooldown_asks_every_time() -> None:
    llm = ScriptedLLM(None, None, "They painted the boat shed.")
    compressor = Compressor(llm, cooldown_s=0, monotonic=Clock())  # type: ignore[arg-type]
    assert [compressor.compress(chat(n), CFG).summary for n in (8, 12, 16)] == [
        "failed",
        "failed",
        "llm",
    ]


class HeldLLM:
    """The first call waits until released (then answers); every later call fails at once."""

    def __init__(self) -> None:
        self.release = threading.Event()
        self.calls = 0

    def complete(self, messages: Sequence[Message], **_: Any) -> str:
        self.calls += 1
        if self.calls > 1:
            raise UpstreamUnavailable("the LLM timed out")
        assert self.release.wait(10)
        return "They painted the boat shed."


def test_a_request_waiting_on_its_summary_stops_when_the_cooldown_starts() -> None:
    llm, clock = HeldLLM(), Clock()
    compressor = Compressor(llm, cooldown_s=60, monotonic=clock)  # type: ignore[arg-type]
    waiting: list[str | None] = []
    first = threading.Thread(
        target=lambda: waiting.append(compressor.compress(chat(8), CFG).summary)
    )
    first.start()
    while llm.calls == 0:  # its summary call is in flight
        time.sleep(0.01)
    assert compressor.compress(chat(12), CFG).summary == "failed"  # the cool-down starts
    first.join(5)
    assert waiting == ["cooldown"]  # as a new request would be, without waiting on its call
    assert compressor.compress(chat(16), CFG).summary == "cooldown"
    llm.release.set()  # the abandoned call answers after all: its summary is kept
    deadline = time.monotonic() + 5
    while compressor.compress(chat(8), CFG).summary != "cached":
        assert time.monotonic() < deadline
        time.sleep(0.01)
    assert llm.calls == 2
