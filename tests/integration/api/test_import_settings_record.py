"""An export's settings record, walked as docs/import.md and docs/settings.md describe it, over
real HTTP on both stores: what the export writes is what an import takes.

A persona holding an override of a setting this Omoide no longer has (``memory_preload_count``,
stored by an older version; docs/settings.md: "ignored") exported it, and the import of that
export was refused ("settings record: unknown setting 'memory_preload_count'"), with no line:
the settings were checked only as they were applied, in the second pass."""

from __future__ import annotations

import json

from omoide_testing import LiveServer


def _ndjson(lines: list[dict[str, object]]) -> bytes:
    return "".join(json.dumps(line) + "\n" for line in lines).encode()


def test_an_older_versions_override_is_left_out_and_skipped(server: LiveServer) -> None:
    server.create_persona("rin")
    server.create_persona("kai")
    with server.admin() as admin:
        assert (
            admin.put("/api/settings/rin", json={"context_budget_tokens": 1500}).status_code == 200
        )
        # as an older Omoide stored it: the store takes what the settings service once did
        server.omoide.store.update_persona_settings("rin", {"memory_preload_count": 3})
        exported = admin.get("/api/export/rin")
        assert exported.status_code == 200
        lines = [json.loads(line) for line in exported.text.splitlines()]
        assert lines[1] == {"type": "settings", "overrides": {"context_budget_tokens": 1500}}
        # a file an older Omoide wrote holds it: skipped, the rest imported
        lines[1]["overrides"]["memory_preload_count"] = 3
        done = admin.post(
            "/api/import/kai",
            content=_ndjson(lines),
            headers={"Content-Type": "application/x-ndjson"},
        )
        assert done.status_code == 200, done.text
        shown = admin.get("/api/settings/kai").json()
        assert shown["overrides"] == {"context_budget_tokens": 1500}


def test_a_refused_override_names_its_line_and_writes_nothing(server: LiveServer) -> None:
    server.create_persona("rin")
    server.create_persona("kai")
    with server.admin() as admin:
        assert admin.post("/api/memories/rin", json={"content": "Rin likes tea"}).status_code == 201
        lines = [json.loads(line) for line in admin.get("/api/export/rin").text.splitlines()]
        for overrides, said in (
            ({"context_budget_tokens": 5}, "setting 'context_budget_tokens' must be ≥ 100, got 5"),
            ({"nope": 1}, "unknown setting 'nope'"),
        ):
            lines[1]["overrides"] = overrides
            refused = admin.post(
                "/api/import/kai",
                content=_ndjson(lines),
                headers={"Content-Type": "application/x-ndjson"},
            )
            assert refused.status_code == 422, refused.text
            error = refused.json()["error"]
            assert error["line"] == 2 and error["message"].startswith("line 2: settings record: ")
            assert said in error["message"], error
        assert admin.get("/api/memories/kai").json()["memories"] == []
        assert admin.get("/api/settings/kai").json()["overrides"] == {}
