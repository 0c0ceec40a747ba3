"""A tag's length on MCP is the service's: 1-64 characters once trimmed, counted in characters
(code points) as a JSON Schema validator counts them. The schema listed ``maxLength: 64``, counted
with the spaces around the tag, so a padded tag HTTP takes was refused on MCP alone."""

from __future__ import annotations

from typing import Any

import anyio
from jsonschema import Draft202012Validator
from mcp_checks import http_client, ok, tool_error
from omoide_testing import LiveServer

from omoide.service.validate import MAX_TAG_CHARS

PADDED = "  " + "t" * MAX_TAG_CHARS + " "
EMOJI = "😀" * MAX_TAG_CHARS  # 64 characters, 128 UTF-16 code units, 256 bytes
OVER = "t" * (MAX_TAG_CHARS + 1)


def test_a_tag_is_counted_once_trimmed_by_the_schema_and_the_service(server: LiveServer) -> None:
    key = server.create_persona("rin")

    async def scenario() -> tuple[dict[str, Any], list[list[str]], str, str]:
        async with http_client(server.url, key) as client:
            schema = next(
                t.input_schema
                for t in (await client.list_tools()).tools
                if t.name == "memory_create"
            )
            kept = []
            for tag in (PADDED, EMOJI):
                made = await ok(
                    client, "memory_create", content=f"Ken likes {tag[:3]}.", tags=[tag]
                )
                kept.append(made.structured_content["memory"]["tags"])
            over = await tool_error(client, "memory_create", content="Ken hums.", tags=[OVER])
            key_ = made.structured_content["memory"]["key"]
            updated = await tool_error(client, "memory_update", key=key_, tags=[OVER + " "])
            return schema, kept, over, updated

    schema, kept, over, updated = anyio.run(scenario)
    assert kept == [["t" * MAX_TAG_CHARS], [EMOJI]]
    validator = Draft202012Validator(schema)
    assert validator.is_valid({"content": "tea", "tags": [PADDED]})
    assert validator.is_valid({"content": "tea", "tags": [EMOJI]})
    assert not validator.is_valid({"content": "tea", "tags": [OVER]})
    assert not validator.is_valid({"content": "tea", "tags": ["a,b"]})
    said = f"must be at most {MAX_TAG_CHARS} characters, got {MAX_TAG_CHARS + 1}"
    assert said in over and over.startswith("Error executing tool memory_create: tag ")
    assert said in updated and updated.startswith("Error executing tool memory_update: tag ")
