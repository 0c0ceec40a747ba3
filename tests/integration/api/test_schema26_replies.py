"""The replies the OpenAPI document once published as bare objects (a block's metadata, the
context's sections, the settings, job failures, an import's skipped items, a version's before
and after) hold exactly the fields their models now name, through real HTTP (schema26)."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

import httpx
from omoide_testing import LiveServer, post_unended_chat
from pydantic import BaseModel

from omoide.api.http.schemas.context import BlockOut, ContextOut, SettingsReply
from omoide.api.http.schemas.memories import HistoryReply, MemoryOut
from omoide.api.http.schemas.system import JobsOut
from omoide.api.http.schemas.transfer import ImportReply

_TYPES = {
    "string": str,
    "integer": int,
    "number": (int, float),
    "boolean": bool,
    "null": type(None),
    "object": dict,
    "array": list,
}


def _conforms(
    value: Any, schema: dict[str, Any], components: dict[str, Any], where: str
) -> list[str]:
    """Where ``value`` is not what ``schema`` says: a missing or unnamed key of an object
    whose properties are listed, a value of another type (free-form maps are not walked)."""
    if "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[-1]
        return [] if name == "JsonValue" else _conforms(value, components[name], components, where)
    if "anyOf" in schema:
        tries = [_conforms(value, sub, components, where) for sub in schema["anyOf"]]
        return [] if [] in tries else min(tries, key=len)
    kind = schema.get("type")
    if (kind and not isinstance(value, _TYPES[kind])) or (
        kind in ("integer", "number") and isinstance(value, bool)
    ):
        return [f"{where}: {type(value).__name__}, not {kind}"]
    if "enum" in schema and value not in schema["enum"]:
        return [f"{where}: {value!r} not in {schema['enum']}"]
    found = []
    if kind == "object" and schema.get("properties"):
        props = schema["properties"]
        found += [f"{where}.{k}: not in the document" for k in value if k not in props]
        found += [f"{where}.{k}: missing" for k in schema.get("required", []) if k not in value]
        for k, v in value.items():
            if k in props:
                found += _conforms(v, props[k], components, f"{where}.{k}")
    if kind == "array" and "items" in schema:
        for i, item in enumerate(value):
            found += _conforms(item, schema["items"], components, f"{where}[{i}]")
    return found


def exactly(server: LiveServer, model: type[BaseModel], reply: dict[str, Any]) -> None:
    """``reply`` holds exactly what the served OpenAPI document's ``model`` names: every
    required key, no key it leaves out, each value of its type (the client's parse, too)."""
    components = httpx.get(f"{server.url}/openapi.json").json()["components"]["schemas"]
    assert _conforms(reply, components[model.__name__], components, model.__name__) == []
    model.model_validate(reply)


def test_blocks_context_settings_history_and_jobs_match_their_models(
    held_server: LiveServer,
) -> None:
    server = held_server
    with server.client(server.create_persona("rin")) as rin:
        assert (
            rin.put(
                "/api/settings/rin", json={"context_include_blocks": True, "timezone": "Asia/Tokyo"}
            ).status_code
            == 200
        )
        assert rin.post(
            "/api/blocks/rin",
            json={
                "block_name": "plans",
                "content": "Trip to Nara.",
                "metadata": {"from": "user", "tags": ["trip", 2], "deep": {"ok": None}},
            },
        ).status_code in (200, 201)
        key = rin.post(
            "/api/memories/rin", json={"content": "Ken drinks green tea.", "importance": 0.9}
        ).json()["memory"]["key"]
        assert rin.patch(f"/api/memories/rin/{key}", json={"tags": ["drink"]}).status_code == 200
        assert rin.put("/api/user-state/rin", json={"name": "Ken"}).status_code == 200
        post_unended_chat(rin, "rin", "s1")
        assert rin.post("/api/sessions/rin/s1/end").status_code == 200

        block = rin.get("/api/blocks/rin/plans").json()
        exactly(server, BlockOut, block)
        assert block["metadata"]["deep"] == {"ok": None}
        context = rin.get("/api/context/rin").json()
        exactly(server, ContextOut, context)
        sections = context["sections"]
        assert sections["blocks"] and sections["last_conversation"]
        assert sections["recent_memories"] and sections["user"]["state"] == {"name": "Ken"}
        settings = rin.get("/api/settings/rin").json()
        exactly(server, SettingsReply, settings)
        assert settings["overrides"] == {"context_include_blocks": True, "timezone": "Asia/Tokyo"}
        history = rin.get(f"/api/memories/rin/{key}/history").json()
        exactly(server, HistoryReply, history)
        memory = rin.get(f"/api/memories/rin/{key}").json()
        exactly(server, MemoryOut, memory)  # metadata an object, never null
        assert memory["metadata"] == {} == history["versions"][-1]["after"]["metadata"]
        assert [v["before"] is None for v in history["versions"]] == [True, False]

        persona_id = server.omoide.store.get_persona("rin").id
        jobs = server.omoide.jobs
        job_id = jobs.enqueue(
            kind="memory.evolve",
            persona_id=persona_id,
            payload={"key": key},
            now=datetime.now(UTC),
            max_attempts=1,
        )
        job = None
        while job is None or job.id != job_id:  # the writes above queued jobs first
            if job is not None:  # set aside: a persona's evolutions are claimed in order
                assert jobs.complete(job.id, now=datetime.now(UTC), worker=job.worker)
            job = jobs.claim(now=datetime.now(UTC), persona_id=persona_id)
            assert job is not None
        assert jobs.fail(job, "boom", now=datetime.now(UTC), backoff_s=0) == "failed"
        report = rin.get("/api/jobs/rin").json()
        exactly(server, JobsOut, report)
        assert report["failures"][0]["last_error"] == "boom"


def test_an_mcp_memory_imports_skipped_items_match_their_model(server: LiveServer) -> None:
    lines = [
        {
            "type": "entity",
            "name": "Ken",
            "entityType": "person",
            "observations": ["drinks tea", "  "],
        }
    ]
    body = "".join(json.dumps(line) + "\n" for line in lines)
    with server.client(server.create_persona("rin")) as rin:
        reply = rin.post(
            "/api/import/rin?source=mcp-memory",
            content=body.encode(),
            headers={"content-type": "application/x-ndjson"},
        )
        assert reply.status_code == 200, reply.text
        exactly(server, ImportReply, reply.json())
        assert reply.json()["skipped_items"] == [
            {"line": 1, "entity": "Ken", "observation": 1, "reason": "blank observation"}
        ]


def test_the_conformance_walk_finds_a_missing_an_unnamed_and_a_mistyped_key() -> None:
    schema = {
        "type": "object",
        "required": ["a", "b"],
        "properties": {
            "a": {"type": "integer"},
            "b": {"anyOf": [{"type": "string"}, {"type": "null"}]},
        },
    }
    assert _conforms({"a": True, "c": 1}, schema, {}, "r") == [
        "r.c: not in the document",
        "r.b: missing",
        "r.a: bool, not integer",
    ]
    assert _conforms({"a": 1, "b": None}, schema, {}, "r") == []
