"""The app's lifespan end: what ``omoide serve`` hands it (``on_shutdown``: close the store,
settle an erase's owed scrub) runs even when a step before it fails."""

from __future__ import annotations

import threading
from typing import Any

import anyio
import pytest
from fastapi.testclient import TestClient

from omoide.api.http.app import create_app
from omoide.wiring import Omoide


class _FailingUpstream:
    async def aclose(self) -> None:
        raise RuntimeError("injected: the chat upstream's client failed to close")


@pytest.mark.parametrize("workers", [True, False])
def test_on_shutdown_runs_when_closing_the_chat_upstream_fails(
    app: Omoide, monkeypatch: pytest.MonkeyPatch, workers: bool
) -> None:
    """Before: the upstream's close raised first, and the job workers were left running and
    the store open, its owed scrub never settled."""
    monkeypatch.setattr(app, "chat_upstream", _FailingUpstream())
    monkeypatch.setattr(app, "warm_up", lambda: None)
    stopped: list[str] = []
    real_stop = app.runner.stop
    monkeypatch.setattr(
        app.runner, "stop", lambda **kw: (stopped.append("workers"), real_stop(**kw))
    )
    served = create_app(app, start_workers=workers, on_shutdown=lambda: stopped.append("closed"))
    with (
        pytest.raises(RuntimeError, match="injected"),
        TestClient(served) as client,
    ):
        assert client.get("/health").status_code == 200
    assert stopped == (["workers", "closed"] if workers else ["closed"])


def test_the_workers_stop_runs_off_the_event_loop(
    app: Omoide, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Session 45: ``JobRunner.stop`` (up to 10 s for the jobs mid-run) ran on the event loop's
    thread, and nothing else the loop had to do ran meanwhile. Here the stop waits for the
    loop to let it go, which a blocked loop never does; the steps' order is kept."""
    monkeypatch.setattr(app, "warm_up", lambda: None)
    steps: list[str] = []
    let_go = threading.Event()
    real_stop = app.runner.stop

    def stop(**kw: Any) -> bool:
        steps.append("workers" if let_go.wait(5) else "workers, the loop blocked")
        return real_stop(**kw)

    monkeypatch.setattr(app.runner, "stop", stop)
    served = create_app(app, on_shutdown=lambda: steps.append("closed"))

    async def let_it_go() -> None:
        while "served" not in steps:
            await anyio.sleep(0.01)
        await anyio.sleep(0.05)  # the lifespan is ending now: its stop waits for this
        let_go.set()

    async def main() -> None:
        async with anyio.create_task_group() as tasks:
            tasks.start_soon(let_it_go)
            async with served.router.lifespan_context(served):
                steps.append("served")

    anyio.run(main)
    assert steps == ["served", "workers", "closed"]
