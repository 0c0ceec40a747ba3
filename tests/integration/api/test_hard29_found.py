"""What a hostile client found through a real server (session 29), each kept as a regression:
a refused value echoed in Python's repr ('1_0', '\\u202e') where every other validation
message quotes it as JSON ("1_0"); a name the client sent (an unknown query parameter or
field, a state key, a memory key) echoed whole, so that 5,000 characters made a 5 KB message;
a dashboard URL that only takes its form's POST answering a browser's GET with the API's JSON
405; a dashboard page's 422 in pydantic's words ("Input should be greater than or equal to 1").
"""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
from omoide_testing import LiveServer, refused

LONG = "x" * 5000
MAX_MESSAGE = 400  # every message here is a sentence, not an echo of what was sent


@pytest.mark.sqlite_only
@pytest.mark.parametrize(
    ("path", "params", "shown"),
    [
        ("/api/search/rin", {"q": "tea", "top_k": "1_0"}, '"1_0"'),
        ("/api/search/rin", {"q": "tea", "min_importance": "nan"}, '"nan"'),
        ("/api/memories/rin", {"limit": "7.5"}, '"7.5"'),
        ("/api/memories/rin", {"offset": "it's"}, '"it\'s"'),
        ("/api/search/rin", {"q": "tea", "date_range": "sometime"}, '"sometime"'),
        # a bidi override escaped as JSON escapes a C0 control (session 45), never raw
        ("/api/search/rin", {"q": "tea", "valid_at": "\u202e"}, '"\\u202e"'),
    ],
)
def test_a_refused_query_value_is_quoted_as_json(
    server: LiveServer, path: str, params: dict[str, str], shown: str
) -> None:
    with server.client(server.create_persona("rin")) as rin:
        error = refused(rin.get(path, params=params), 422)
    assert shown in error["message"], error
    assert "'1_0'" not in error["message"] and "'\\u202e'" not in error["message"]


@pytest.mark.sqlite_only
def test_a_refused_body_value_or_header_is_quoted_as_json(server: LiveServer) -> None:
    with server.client(server.create_persona("rin")) as rin:
        error = refused(rin.put("/api/settings/rin", json={"keep_recent": "five"}), 422)
        assert error["message"].endswith('got the text "five"'), error
        error = refused(
            rin.post("/api/memories/rin", content=b"{}", headers={"content-type": "text/plain"}),
            422,
        )
        assert error["message"].endswith('(got "text/plain")'), error
    with server.admin() as admin:
        error = refused(admin.delete("/api/personas/rin/keys/1_0"), 422)
        assert error["message"].endswith('got "1_0"'), error


@pytest.mark.sqlite_only
@pytest.mark.parametrize(
    "ask",
    [
        pytest.param(lambda c: c.get("/api/stats/rin", params={LONG: "1"}), id="query-name"),
        pytest.param(
            lambda c: c.post("/api/memories/rin", json={"content": "a", LONG: 1}), id="body-field"
        ),
        pytest.param(lambda c: c.put("/api/user-state/rin", json={LONG: "a"}), id="state-key"),
        pytest.param(
            lambda c: c.put("/api/settings/rin", json={"keep_recent": LONG}), id="settings-text"
        ),
        pytest.param(
            lambda c: c.post(
                "/api/memories/rin", content=b"{}", headers={"content-type": "text/" + LONG}
            ),
            id="content-type",
        ),
        pytest.param(
            lambda c: c.get("/api/search/rin", params={"q": "a", "date_range": LONG}),
            id="date-range",
        ),
    ],
)
def test_a_long_name_or_value_is_cut_in_the_message(server: LiveServer, ask: Any) -> None:
    with server.client(server.create_persona("rin")) as rin:
        error = refused(ask(rin), 404, 422)
    message = error["message"]
    # a value with a length limit is refused by its length (date_range), not echoed
    assert "xxxxx…" in message or "must be at most" in message, message[:200]
    if "accepted forms" not in message:  # the date reader lists every form it reads
        assert len(message) < MAX_MESSAGE, message[:200]


@pytest.mark.sqlite_only
@pytest.mark.parametrize("method", ["GET", "PATCH", "DELETE"])
def test_a_memory_key_over_64_characters_is_refused_as_mcp_refuses_it(
    server: LiveServer, method: str
) -> None:
    """A 5,000-character key was looked up and echoed whole in the 404; every stored key is at
    most 64 characters (an import refuses a longer one), and MCP's tools take at most 64."""
    with server.client(server.create_persona("rin")) as rin:
        reply = rin.request(
            method,
            f"/api/memories/rin/{LONG}",
            json={"content": "x"} if method == "PATCH" else None,
        )
        error = refused(reply, 422)
        assert error == {
            "code": "invalid_input",
            "field": "key",
            "message": "key must be at most 64 characters, got 5,000",
        }
        assert refused(rin.get(f"/api/memories/rin/{'k' * 64}"), 404)["code"] == "not_found"


@pytest.mark.sqlite_only
def test_a_control_character_in_a_name_is_escaped_as_json_not_python(server: LiveServer) -> None:
    with server.client(server.create_persona("rin")) as rin:
        error = refused(rin.get("/api/memories/rin/a%0Ab"), 404)
    assert error["message"] == "no memory 'a\\nb' for persona 'rin'", error
    assert error["key"] == "a\nb"


@pytest.mark.sqlite_only
def test_a_get_of_a_form_only_dashboard_url_goes_to_the_page_of_its_form(
    server: LiveServer,
) -> None:
    """A bookmarked or reloaded ``…/edit`` was the API's JSON 405, shown as raw text."""
    with server.client(server.create_persona("rin")) as rin:
        key = rin.post("/api/memories/rin", json={"content": "Ken drinks tea."}).json()["memory"][
            "key"
        ]
    with server.signed_in(server.admin_key) as client:
        for url, page in [
            (f"/p/rin/memories/{key}/edit", f"/p/rin/memories/{key}"),
            (f"/p/rin/memories/{key}/delete", f"/p/rin/memories/{key}"),
            ("/p/rin/memories/a%3Fb/edit", "/p/rin/memories/a%3Fb"),
            ("/p/rin/blocks/b1/delete", "/p/rin/blocks"),
            ("/p/rin/blocks/tokens", "/p/rin/blocks"),
            ("/p/rin/jobs/7/retry", "/p/rin"),
            ("/logout", "/"),
        ]:
            reply = client.get(url)
            assert (reply.status_code, reply.headers["location"]) == (303, page), url
            assert reply.headers["content-security-policy"]
        shown = client.get(f"/p/rin/memories/{key}/edit", follow_redirects=True)
        assert shown.status_code == 200 and shown.headers["content-type"].startswith("text/html")
        assert "Ken drinks tea." in shown.text
        # the form still works, and is still refused without its token
        assert client.post(f"/p/rin/memories/{key}/edit", data={"content": "x"}).status_code == 403
        # signed out, the page the redirect names asks to sign in
    with httpx.Client(base_url=server.url) as anonymous:
        reply = anonymous.get(f"/p/rin/memories/{key}/edit", follow_redirects=True)
        assert reply.url.path == "/login"


@pytest.mark.sqlite_only
@pytest.mark.parametrize(
    ("query", "said"),
    [
        ("page=0", "page must be at least 1, got 0"),
        ("page=99999999999999", "page must be at most 100000, got 99999999999999"),
    ],
)
def test_a_dashboard_page_refuses_a_number_in_the_apis_words(
    server: LiveServer, query: str, said: str
) -> None:
    server.create_persona("rin")
    with server.signed_in(server.admin_key) as client:
        reply = client.get(f"/p/rin/sessions?{query}")
    assert reply.status_code == 422 and reply.headers["content-type"].startswith("text/html")
    assert said in reply.text.replace("&#39;", "'"), reply.text[-600:]
    assert "Input should" not in reply.text


def test_json_quoting_of_a_value_is_the_one_the_validation_messages_use() -> None:
    """The echo of a value (engine.errors.quoted) is the JSON a client would send."""
    from omoide.engine.errors import named, quoted

    assert quoted("1_0") == '"1_0"' and quoted(True) == "true" and quoted(None) == "null"
    assert quoted("x" * 200).endswith("…") and len(quoted("x" * 200)) == 80
    assert quoted("\ud800") == '"\\ud800"'  # a lone surrogate (a CLI argument) stays UTF-8
    assert named("a\nb") == "'a\\nb'" and named("名前") == "'名前'"
    assert len(named("x" * 200)) == 66 and json.dumps(named("k")) == "\"'k'\""


@pytest.mark.sqlite_only
def test_a_method_the_static_files_do_not_take_is_not_listed_as_taken(server: LiveServer) -> None:
    with httpx.Client(base_url=server.url) as client:
        reply = client.post("/static/dashboard.js")
    error = refused(reply, 405)
    assert error["message"] == "POST is not allowed on /static/dashboard.js; it takes GET, HEAD"
    assert reply.headers["allow"] == "GET, HEAD"
