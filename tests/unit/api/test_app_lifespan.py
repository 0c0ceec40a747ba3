"""The app's lifespan end: what ``omoide serve`` hands it (``on_shutdown``: close the store,
settle an erase's owed scrub) runs even when a step before it fails."""

from __future__ import annotations

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
