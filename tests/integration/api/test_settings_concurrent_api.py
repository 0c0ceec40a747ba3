"""Two settings updates at once over real HTTP: a rule over two settings (keyword_weight and
semantic_weight not both 0) holds against a concurrent PUT. It was checked before the store's
transaction: both PUTs passed, both weights were 0, and every search of the persona (its chat
proxy and MCP search too) was refused until someone reset one (2 of 60 tries on a live server;
here each check is slowed so that the two always overlap)."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from omoide_testing import LiveServer

import omoide.service.settings as settings_service


def test_concurrent_puts_never_leave_both_search_weights_at_zero(
    server: LiveServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    key = server.create_persona("rin")
    merge = settings_service.merge_persona_settings

    def slow_merge(*args: Any, **kwargs: Any) -> Any:
        time.sleep(0.3)
        return merge(*args, **kwargs)

    monkeypatch.setattr(settings_service, "merge_persona_settings", slow_merge)
    statuses: list[int] = []
    start = threading.Barrier(2)

    def put(body: dict[str, float]) -> None:
        with server.client(key) as client:
            start.wait()
            statuses.append(client.put("/api/settings/rin", json=body).status_code)

    threads = [
        threading.Thread(target=put, args=(body,))
        for body in ({"keyword_weight": 0}, {"semantic_weight": 0})
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert sorted(statuses) == [200, 409]
    monkeypatch.setattr(settings_service, "merge_persona_settings", merge)
    with server.client(key) as client:
        overrides = client.get("/api/settings/rin").json()["overrides"]
        assert len(overrides) == 1 and set(overrides.values()) == {0}
        found = client.get("/api/search/rin", params={"q": "tea"})
        assert found.status_code == 200, found.text
