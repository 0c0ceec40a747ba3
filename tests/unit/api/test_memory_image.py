"""A version's before/after image (``MemoryImage``) is derived from ``MemoryOut``: the fields a
change can touch, each typed as the memory's own, so the two cannot drift apart."""

from __future__ import annotations

from typing import Any

from pydantic import TypeAdapter

from omoide.api.http.schemas.memories import MemoryImage, MemoryOut
from omoide.model import VERSIONED_FIELDS

_TEMPLATE = "#/components/schemas/{model}"


def _schema(kind: Any) -> dict[str, Any]:
    return TypeAdapter(kind).json_schema(mode="serialization", ref_template=_TEMPLATE)


def test_an_image_holds_the_versioned_fields_typed_as_the_memory_types_them() -> None:
    image, memory = _schema(MemoryImage), _schema(MemoryOut)
    assert list(image["properties"]) == list(VERSIONED_FIELDS)
    for name in VERSIONED_FIELDS:
        assert image["properties"][name] == memory["properties"][name], name
    assert "required" not in image  # an older export's history may lack some of them


def test_the_images_document_is_as_it_was_written_by_hand() -> None:
    """The schema the OpenAPI document serves under the same name, key for key (the hand-written
    TypedDict it replaced), but for the definitions it refers to; the keys in that order."""
    image = _schema(MemoryImage)
    image.pop("$defs", None)
    assert list(image) == ["additionalProperties", "description", "properties", "title", "type"]
    nullable = {"anyOf": [{"type": "string"}, {"type": "null"}]}
    assert image == {
        "additionalProperties": True,
        "description": "A memory as one version found it: the fields a change can touch "
        "(model.memory's\nVERSIONED_FIELDS). A history imported from an older "
        "export may lack some of them.",
        "properties": {
            "content": {"title": "Content", "type": "string"},
            "kind": {"title": "Kind", "type": "string"},
            "importance": {"title": "Importance", "type": "number"},
            "tags": {"items": {"type": "string"}, "title": "Tags", "type": "array"},
            "emotion_type": {**nullable, "title": "Emotion Type"},
            "emotion_intensity": {"title": "Emotion Intensity", "type": "number"},
            "valid_from": {**nullable, "title": "Valid From"},
            "valid_until": {**nullable, "title": "Valid Until"},
            "superseded_by": {**nullable, "title": "Superseded By"},
            "summary_ref": {**nullable, "title": "Summary Ref"},
            "status": {"title": "Status", "type": "string"},
            "metadata": {
                "additionalProperties": {"$ref": "#/components/schemas/JsonValue"},
                "description": image["properties"]["metadata"]["description"],
                "title": "Metadata",
                "type": "object",
            },
        },
        "title": "MemoryImage",
        "type": "object",
    }
