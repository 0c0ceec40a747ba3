"""A settings change leaving a pair that does not hold together (both search weights 0, a memory
budget above the whole chat budget) is refused with one rule for both pairs (qa46b; the weights
were a 409 and the budgets a 422 whatever the request held): a 422 when the request sets both
values itself, a 409 when one comes from the persona's stored setting or the server default, as
a memory's validity and a block's content against its ``max_tokens`` are refused."""

from __future__ import annotations

import html
import json
import re
from typing import Any

import pytest
from omoide_testing import LiveServer

ZERO_WEIGHTS = {"keyword_weight": 0, "semantic_weight": 0}
BUDGETS_CROSSED = {"chat_budget_tokens": 1000, "chat_memory_budget_tokens": 1200}


@pytest.mark.parametrize(
    "body",
    [
        pytest.param(ZERO_WEIGHTS, id="weights"),
        pytest.param(BUDGETS_CROSSED, id="budgets"),
    ],
)
def test_a_pair_the_request_sets_itself_is_refused_with_422(
    server: LiveServer, body: dict[str, Any]
) -> None:
    server.create_persona("rin")
    with server.admin() as admin:
        refused = admin.put("/api/settings/rin", json=body)
        assert refused.status_code == 422, refused.text
        error = refused.json()["error"]
        assert error["code"] == "invalid_input"
        assert error["setting"] in body
        assert "(this persona's setting)" in error["message"]
        assert admin.get("/api/settings/rin").json()["overrides"] == {}


@pytest.mark.parametrize(
    ("stored", "body"),
    [
        pytest.param({"semantic_weight": 0}, {"keyword_weight": 0}, id="weights"),
        pytest.param(
            {"chat_budget_tokens": 1000}, {"chat_memory_budget_tokens": 1200}, id="budgets"
        ),
        pytest.param({}, {"chat_memory_budget_tokens": 7000}, id="budget-against-default"),
    ],
)
def test_a_pair_against_a_stored_or_default_value_is_refused_with_409(
    server: LiveServer, stored: dict[str, Any], body: dict[str, Any]
) -> None:
    server.create_persona("rin")
    with server.admin() as admin:
        if stored:
            assert admin.put("/api/settings/rin", json=stored).status_code == 200
        refused = admin.put("/api/settings/rin", json=body)
        assert refused.status_code == 409, refused.text
        error = refused.json()["error"]
        assert error["code"] == "conflict"
        assert error["setting"] == next(iter(body))
        assert admin.get("/api/settings/rin").json()["overrides"] == stored


def test_the_dashboard_form_shows_a_weights_refusal_on_the_settings_page(
    server: LiveServer,
) -> None:
    key = server.create_persona("rin")
    with server.admin() as admin:
        assert admin.put("/api/settings/rin", json={"semantic_weight": 0}).status_code == 200
    with server.signed_in(key) as page:
        found = re.search(r'name="csrf" value="([^"]+)"', page.get("/p/rin/settings").text)
        assert found is not None
        form = {"csrf": found.group(1), "name": "keyword_weight", "value": "0"}
        refused = page.post("/p/rin/settings", data=form)
    assert refused.status_code == 409, refused.text
    shown = html.unescape(refused.text)
    assert "keyword_weight and semantic_weight cannot both be 0" in shown
    assert 'name="csrf"' in shown  # the settings page with its form, not a bare error page


def test_an_imported_settings_record_against_the_personas_own_is_a_409(
    server: LiveServer,
) -> None:
    server.create_persona("rin")
    server.create_persona("kai")
    with server.admin() as admin:
        assert admin.post("/api/memories/rin", json={"content": "Rin likes tea"}).status_code == 201
        lines = [json.loads(line) for line in admin.get("/api/export/rin").text.splitlines()]
        lines[1]["overrides"] = {"chat_memory_budget_tokens": 1200}
        assert admin.put("/api/settings/kai", json={"chat_budget_tokens": 1000}).status_code == 200
        refused = admin.post(
            "/api/import/kai?merge=true",
            content="".join(json.dumps(line) + "\n" for line in lines).encode(),
            headers={"Content-Type": "application/x-ndjson"},
        )
        assert refused.status_code == 409, refused.text
        error = refused.json()["error"]
        assert error["code"] == "conflict"
        assert error["message"].startswith("settings record: chat_memory_budget_tokens cannot")
        assert admin.get("/api/settings/kai").json()["overrides"] == {"chat_budget_tokens": 1000}
