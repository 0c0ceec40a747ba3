"""A number in the path is read by the query's reader, in its words (schema26): ``1e1`` and a
full-width ``１０`` are key 10, as ``top_k=1e1`` and ``top_k=１０`` are 10; what it refuses
(``7.5`` for an integer, another script's digits) is refused naming the path parameter, not
with pydantic's generic "a valid integer"."""

from __future__ import annotations

import pytest
from omoide_testing import LiveServer

INTEGER = "must be an integer written with the digits 0-9 (as in JSON: e.g. 5 or 300)"


@pytest.mark.parametrize("key_id", ["1e1", "１０", "10.0", "%EF%BC%91%EF%BC%90"])
def test_a_key_id_the_reader_reads_revokes_that_key(server: LiveServer, key_id: str) -> None:
    server.create_persona("rin")
    with server.admin() as admin:
        for _ in range(11):
            assert admin.post("/api/personas/rin/keys").status_code == 201
        ids = [k["key_id"] for k in admin.get("/api/personas/rin/keys").json()["keys"]]
        assert 10 in ids
        reply = admin.delete(f"/api/personas/rin/keys/{key_id}")
        assert reply.status_code == 200, reply.text
        revoked = [
            k["key_id"]
            for k in admin.get("/api/personas/rin/keys").json()["keys"]
            if k["revoked_at"] is not None
        ]
        assert revoked == [10]


@pytest.mark.parametrize(
    ("key_id", "shown"),
    [
        ("7.5", '"7.5"'),
        ("٣", '"٣"'),
        ("1_0", '"1_0"'),
        ("１_０", '"１_０"'),
        ("1e", '"1e"'),
        ("０x1", '"０x1"'),
    ],
)
def test_a_key_id_the_reader_refuses_is_told_in_its_words(
    server: LiveServer, key_id: str, shown: str
) -> None:
    server.create_persona("rin")
    with server.admin() as admin:
        assert admin.post("/api/personas/rin/keys").status_code == 201
        reply = admin.delete(f"/api/personas/rin/keys/{key_id}")
        assert reply.status_code == 422, reply.text
        error = reply.json()["error"]
        assert error["field"] == "key_id"
        assert error["message"] == f"path parameter 'key_id' {INTEGER}, got {shown}"
        assert "valid integer" not in reply.text
        assert all(
            k["revoked_at"] is None for k in admin.get("/api/personas/rin/keys").json()["keys"]
        )


def test_a_key_id_out_of_range_is_still_the_routes_422(server: LiveServer) -> None:
    server.create_persona("rin")
    with server.admin() as admin:
        for key_id in ("0", "0e0", "１e30"):
            reply = admin.delete(f"/api/personas/rin/keys/{key_id}")
            assert reply.status_code == 422, (key_id, reply.text)
            assert reply.json()["error"]["field"] == "key_id"
        assert admin.delete("/api/personas/rin/keys/1e1").status_code == 404  # no such key
