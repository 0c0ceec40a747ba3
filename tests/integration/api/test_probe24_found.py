"""Session 24's probe, what a demanding user met (real HTTP and the MCP SDK client, both
stores): a settings value sent as text over HTTP was told to use "the digits 0-9" (which text
over HTTP never may: a JSON number is asked for), ``PUT /api/context`` with ``{}`` answered
with pydantic's "Value error," and MCP ``update_context(user_info={})`` said "every value given
was already current" when none was given."""

from __future__ import annotations

import anyio
import pytest
from mcp_checks import http_client, ok, tool_error
from omoide_testing import LiveServer, refused


def test_a_settings_number_sent_as_text_is_told_to_send_a_json_number(server: LiveServer) -> None:
    key = server.create_persona("rin")
    with server.client(key) as rin:
        for text in ("日本語", "30", "３０"):
            error = refused(rin.put("/api/settings/rin", json={"session_idle_minutes": text}), 422)
            assert error["message"] == (
                f"setting 'session_idle_minutes' must be a JSON number, got the text \"{text}\""
            ), error
            assert error["setting"] == "session_idle_minutes"
        assert rin.put("/api/settings/rin", json={"session_idle_minutes": 30}).status_code == 200


def test_an_empty_context_update_is_told_what_to_give(server: LiveServer) -> None:
    key = server.create_persona("rin")
    with server.client(key) as rin:
        error = refused(rin.put("/api/context/rin", json={}), 422)
    assert "Value error" not in error["message"], error
    assert error["message"].startswith("request body: give user_info and/or persona_state, e.g."), (
        error
    )

    async def scenario() -> None:
        async with http_client(server.url, key) as client:
            empty = await ok(client, "update_context", user_info={})
            said = empty.content[0].text  # type: ignore[union-attr]
            assert said.startswith("Nothing changed: no key was given"), said
            await ok(client, "update_context", user_info={"name": "Ken"})
            again = await ok(client, "update_context", user_info={"name": "Ken"})
            assert again.content[0].text == (  # type: ignore[union-attr]
                "Nothing changed: every value given was already current."
            )

    anyio.run(scenario)


BOM = b"\xef\xbb\xbf"


def test_a_body_or_import_file_saved_with_a_byte_order_mark_is_read(server: LiveServer) -> None:
    """A file saved by Windows Notepad starts with a UTF-8 byte order mark; sent with curl
    ``--data-binary @file`` it was refused with Python's "Unexpected UTF-8 BOM (decode using
    utf-8-sig)". RFC 8259 lets a reader ignore it, and the API now does: a body, an import."""
    rin_key, kai_key = server.create_persona("rin"), server.create_persona("kai")
    json_type = {"content-type": "application/json"}
    with server.client(rin_key) as rin:
        made = rin.post(
            "/api/memories/rin", content=BOM + b'{"content": "Ken drinks tea."}', headers=json_type
        )
        assert made.status_code == 201, made.text
        assert made.json()["memory"]["content"] == "Ken drinks tea."
        export = rin.get("/api/export/rin").content
    with server.client(kai_key) as kai:
        imported = kai.post(
            "/api/import/kai",
            content=BOM + export.replace(b'"rin"', b'"kai"'),
            headers={"content-type": "application/x-ndjson"},
        )
        assert imported.status_code == 200, imported.text
        listed = kai.get("/api/memories/kai").json()["memories"]
        assert [m["content"] for m in listed] == ["Ken drinks tea."]


@pytest.mark.parametrize(
    ("body", "got"),
    [
        (b'"Ken drinks tea."', "a string"),
        (b'[{"content": "x"}]', "an array"),
        (b"null", "null"),
        (b"5", "a number"),
    ],
)
def test_a_body_that_is_not_an_object_is_told_so(server: LiveServer, body: bytes, got: str) -> None:
    """Was pydantic's "Input should be a valid dictionary or object to extract fields from"."""
    key = server.create_persona("rin")
    with server.client(key) as rin:
        error = refused(
            rin.post(
                "/api/memories/rin", content=body, headers={"content-type": "application/json"}
            ),
            422,
        )
    assert error["message"] == f"the request body must be a JSON object ({{…}}), got {got}"


def test_deleting_a_deleted_memory_again_is_a_conflict_not_a_404(server: LiveServer) -> None:
    """It was a 404 "already deleted" (and over MCP "find the right key with memory_search")
    for a memory a read returns: the key is right, the memory is in a state that refuses it,
    as an update of a deleted memory is (409). A purge still erases it."""
    key = server.create_persona("rin")
    with server.client(key) as rin:
        memory = rin.post("/api/memories/rin", json={"content": "Ken drinks green tea."}).json()[
            "memory"
        ]["key"]
        assert rin.delete(f"/api/memories/rin/{memory}").status_code == 200
        again = refused(rin.delete(f"/api/memories/rin/{memory}"), 409)
        assert "already deleted" in again["message"] and "purge" in again["message"], again
        assert rin.get(f"/api/memories/rin/{memory}").status_code == 200
        assert (
            rin.delete(f"/api/memories/rin/{memory}", params={"purge": "true"}).status_code == 200
        )

    async def scenario() -> None:
        async with http_client(server.url, key) as client:
            made = await ok(client, "memory_create", content="Ken plays the cello.")
            doomed = made.structured_content["memory"]["key"]  # type: ignore[index]
            await ok(client, "memory_delete", key=doomed)
            said = await tool_error(client, "memory_delete", key=doomed)
            assert "already deleted" in said and "memory_search" not in said, said

    anyio.run(scenario)


def test_the_key_routes_write_times_as_every_other_route(server: LiveServer) -> None:
    """The key routes wrote '…Z' (their response model re-serialised the times), every other
    route '…+00:00'; a client parsing one format failed on the other."""
    key = server.create_persona("rin")
    with server.client(key) as rin:
        issued = rin.post("/api/personas/rin/keys").json()
        listed = rin.get("/api/personas/rin/keys").json()["keys"]
        made = rin.post("/api/memories/rin", json={"content": "Ken drinks tea."}).json()
    stamps = [
        issued["created_at"],
        *(k["created_at"] for k in listed),
        made["memory"]["created_at"],
    ]
    assert all(stamp.endswith("+00:00") for stamp in stamps), stamps
    assert issued["api_key"].startswith("omo_p_") and issued["persona"] == "rin"


def test_an_mcp_argument_of_the_wrong_container_type_is_told_in_json_words(
    server: LiveServer,
) -> None:
    """update_context(user_info="name: Hanako") was told "Input should be a valid dictionary
    or instance of UserInfo" (a class of ours); tags="music" "a valid list"."""
    key = server.create_persona("rin")

    async def scenario() -> None:
        async with http_client(server.url, key) as client:
            said = await tool_error(client, "update_context", user_info="name: Hanako")
            assert "'user_info' must be an object ({…}) (got a string)" in said, said
            assert "UserInfo" not in said
            tags = await tool_error(
                client, "memory_create", content="Ken plays the oboe.", tags="music"
            )
            assert "'tags' must be an array ([…]) (got a string)" in tags, tags

    anyio.run(scenario)


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (
            {"content": "Ken plays the oboe.", "tags": "music"},
            "tags must be an array ([…]), got a string",
        ),
        (
            {"content": "Ken plays the oboe.", "metadata": ["a"]},
            "metadata must be an object ({…}), got an array",
        ),
        ({"user_info": "name: Hanako"}, "user_info must be an object ({…}), got a string"),
    ],
)
def test_a_field_of_the_wrong_container_type_is_told_in_json_words(
    server: LiveServer, body: dict[str, object], message: str
) -> None:
    key = server.create_persona("rin")
    path = "/api/context/rin" if "user_info" in body else "/api/memories/rin"
    with server.client(key) as rin:
        reply = rin.put(path, json=body) if "user_info" in body else rin.post(path, json=body)
    assert refused(reply, 422)["message"] == message
