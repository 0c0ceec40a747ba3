"""``omoide mcp``'s event loop is built whole even when a stop signal lands while it is built
(``OrderlyStop.new_loop``): the stop unwinds once the loop exists (and is closed), never from
inside its ``__init__`` — a loop cut there printed a traceback from its ``__del__`` at the exit."""

from __future__ import annotations

import asyncio
import gc
import signal
import sys
from typing import Any

import pytest

from omoide.api.mcp.stdio_stop import OrderlyStop


class _SignalledPolicy(asyncio.DefaultEventLoopPolicy):
    """Sends SIGINT to this process from inside the loop's construction."""

    def __init__(self) -> None:
        super().__init__()
        self.built: list[asyncio.AbstractEventLoop] = []

    def new_event_loop(self) -> asyncio.AbstractEventLoop:
        signal.raise_signal(signal.SIGINT)  # its Python handler runs at the next bytecode
        loop = super().new_event_loop()
        self.built.append(loop)
        return loop


@pytest.fixture
def signalled_policy() -> Any:
    before = asyncio.get_event_loop_policy()
    policy = _SignalledPolicy()
    asyncio.set_event_loop_policy(policy)
    try:
        yield policy
    finally:
        asyncio.set_event_loop_policy(before)


def test_a_signal_while_the_loop_is_built_unwinds_after_it_whole_and_closed(
    signalled_policy: _SignalledPolicy, monkeypatch: pytest.MonkeyPatch
) -> None:
    unraisable: list[Any] = []
    monkeypatch.setattr(sys, "unraisablehook", unraisable.append)
    reached = False
    with OrderlyStop() as stopping:
        stopping.new_loop()
        reached = True  # pragma: no cover - the stop unwinds before this line
    assert not reached
    (loop,) = signalled_policy.built
    assert loop.is_closed()
    del loop
    signalled_policy.built.clear()
    gc.collect()
    assert unraisable == []


def test_without_a_signal_the_loop_is_returned_open() -> None:
    with OrderlyStop() as stopping:
        loop = stopping.new_loop()
    try:
        assert not loop.is_closed()
        assert loop.run_until_complete(asyncio.sleep(0, result=7)) == 7
    finally:
        loop.close()


def test_once_held_a_signal_while_the_loop_is_built_only_hurries_the_stop(
    signalled_policy: _SignalledPolicy,
) -> None:
    with OrderlyStop() as stopping:
        stopping.hold()
        loop = stopping.new_loop()
        assert stopping.hurry.event.is_set()
    assert not loop.is_closed()
    loop.close()
