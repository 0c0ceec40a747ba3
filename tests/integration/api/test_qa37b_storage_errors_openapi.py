"""Every operation of the published OpenAPI document lists the storage's refusals: 503
``storage_unavailable`` (every route reads the database: a key is looked up, /health pings it)
and 507 ``storage_full`` (every route but /health may write or spill a sort to disk), both with
the one error body. Before, only the import route listed 507 and none listed the storage's 503,
though every route could answer them."""

from __future__ import annotations

import pytest
from omoide_testing import LiveServer

# The document is built from the declarations; the store does not change it.
pytestmark = pytest.mark.sqlite_only

ERROR_BODY = "#/components/schemas/ErrorBody"


def test_every_operation_lists_the_storage_503_and_507(server: LiveServer) -> None:
    with server.client() as client:
        document = client.get("/openapi.json").json()
    operations = [
        (method.upper(), path, op)
        for path, ops in document["paths"].items()
        for method, op in ops.items()
    ]
    assert len(operations) >= 44
    for method, path, op in operations:
        responses = op["responses"]
        expected = {"503"} if path == "/health" else {"503", "507"}
        assert expected <= set(responses), (method, path)
        for status in expected:
            reply = responses[status]
            assert reply["content"]["application/json"]["schema"]["$ref"] == ERROR_BODY
        assert "storage_unavailable" in responses["503"]["description"], (method, path)
        if path != "/health":
            assert "storage_full" in responses["507"]["description"], (method, path)
    assert "507" not in document["paths"]["/health"]["get"]["responses"]


def test_a_route_s_own_503_keeps_its_meaning_beside_the_storage_s(server: LiveServer) -> None:
    """The chat proxy's 503 (its upstream LLM unreachable or not configured) and the
    storage's are one status: both meanings are said."""
    with server.client() as client:
        document = client.get("/openapi.json").json()
    text = document["paths"]["/v1/chat/completions"]["post"]["responses"]["503"]["description"]
    assert "upstream LLM" in text
    assert "storage_unavailable" in text
