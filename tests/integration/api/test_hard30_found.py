"""What a hostile client found through a real server (session 30), each kept as a regression:
a body that is not JSON refused in Python's words ("not valid JSON: Expecting value at line 1
column 6", "Extra data") on every route and the import.
"""

from __future__ import annotations

import re

import pytest
from omoide_testing import LiveServer, refused

PYTHONS = re.compile("Expecting|Extra data|Unterminated|Invalid control|delimiter")


@pytest.mark.sqlite_only
@pytest.mark.parametrize(("method", "path", "headers"), [
    ("POST", "/api/memories/rin", {}),
    ("PUT", "/api/user-state/rin", {}),
    ("POST", "/v1/chat/completions", {"X-Omoide-Persona": "rin"}),
    ("POST", "/api/import/rin", {}),
    ("POST", "/api/import/rin", {"content-type": "application/x-ndjson"}),
])
@pytest.mark.parametrize(("body", "words"), [
    (b'{"content":', "the text ends before the JSON value is complete (line 1, column 12)"),
    (b'{"content": "tea"}{}', "more text follows the end of the JSON value (line 1, column 19)"),
    (b"{'content': 'tea'}", "a key in single quotes; JSON writes keys and strings in double "
                            "quotes (line 1, column 2)"),
])
def test_a_body_that_is_not_json_is_refused_in_the_readers_words(
        server: LiveServer, method: str, path: str, headers: dict[str, str], body: bytes,
        words: str) -> None:
    with server.client(server.create_persona("rin")) as rin:
        sent = {"content-type": "application/json", **headers}
        error = refused(rin.request(method, path, content=body, headers=sent), 422)
    assert f"not valid JSON: {words}" in error["message"], error
    assert not PYTHONS.search(error["message"]), error
