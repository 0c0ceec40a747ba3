"""Reading other memory systems' files, pure: parsed JSON in, Omoide-shaped records out.

- Mem0: the memories a Mem0 client lists (``get_all``: ``{"results": [...]}`` or a plain
  list), each with ``memory`` text, ``metadata``, ``created_at``/``updated_at``, ``user_id``
  and optional ``categories``.
- The MCP reference memory server's ``memory.jsonl``: ``entity`` lines (name, entityType,
  observations) and ``relation`` lines (from, to, relationType).
- Chats: in ``peer_chats.py``.

The field mapping is documented in ``docs/import.md``. Anything malformed is an InvalidInput
that names where it is.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from omoide.engine.blank import NON_BLANK_RULE, is_blank
from omoide.engine.errors import named, quoted

__all__ = [
    "PeerFormatError",
    "PeerMemory",
    "PeerRelation",
    "PeerSkipped",
    "Stamp",
    "foreign_time",
    "parse_mcp_memory",
    "parse_mem0",
]


class PeerFormatError(ValueError):
    """Another system's file that is not in the shape it should have (the message says where)."""

    def __init__(self, message: str, *, line: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.line = line


MAX_TAG_CHARS = 64

# A foreign time: aware UTC, or the text as the file wrote it when it is not ISO text with an
# offset (the service refuses it with the API's timestamp message, naming the record).
Stamp = datetime | str | None


@dataclass(frozen=True)
class PeerMemory:
    content: str
    tags: tuple[str, ...] = ()
    metadata: dict[str, Any] = field(default_factory=dict)
    created_at: Stamp = None
    kind: str = "note"
    entity: str | None = None  # MCP memory: the entity this observation belongs to


@dataclass(frozen=True)
class PeerSkipped:
    """Something of the file left out on purpose, and why (the import report lists it)."""

    line: int
    entity: str
    observation: int  # its index in the entity's observations
    reason: str

    def as_dict(self) -> dict[str, Any]:
        return {
            "line": self.line,
            "entity": self.entity,
            "observation": self.observation,
            "reason": self.reason,
        }


@dataclass(frozen=True)
class PeerRelation:
    source: str
    target: str
    relation: str
    memory: PeerMemory


def foreign_time(value: Any) -> Stamp:
    """ISO text with its offset or a Unix time (ChatGPT), as aware UTC; None when absent; any
    other text as written (a time without offset, or unreadable: never guessed, never
    dropped)."""
    if value is None or value == "":
        return None
    if isinstance(value, int | float) and not isinstance(value, bool):
        try:
            return datetime.fromtimestamp(float(value), tz=UTC)
        except (ValueError, OverflowError, OSError):
            return str(value)
    if isinstance(value, str):
        try:
            parsed = datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
            return parsed.astimezone(UTC) if parsed.tzinfo else value
        except (ValueError, OverflowError):  # past the calendar once in UTC: 0001-01-01+14:00
            return value
    return str(value)


def _order(when: Stamp) -> datetime:
    return when if isinstance(when, datetime) else datetime.min.replace(tzinfo=UTC)


def _tag(text: str) -> str:
    return " ".join(text.split())[:MAX_TAG_CHARS]


# -- Mem0 ------------------------------------------------------------------------------------


def parse_mem0(data: Any, *, user_id: str | None = None) -> list[PeerMemory]:
    """Mem0 memories (optionally only ``user_id``'s), oldest first."""
    items = data.get("results", data.get("memories")) if isinstance(data, dict) else data
    if not isinstance(items, list):
        raise PeerFormatError('a Mem0 export is a list of memories or {"results": [...]}')
    out: list[PeerMemory] = []
    for i, item in enumerate(items):
        if not isinstance(item, dict):
            raise PeerFormatError(f"memory {i}: must be an object")
        text = item.get("memory", item.get("text"))
        if not isinstance(text, str):
            got = "it has none" if text is None else f"got {quoted(text)}"
            raise PeerFormatError(f"memory {i}: 'memory' must be a string ({got})")
        if is_blank(text):  # in the API's one wording, where the file holds it
            raise PeerFormatError(f"memory {i}: 'memory' {NON_BLANK_RULE} (got {quoted(text)})")
        if user_id is not None and item.get("user_id") != user_id:
            continue
        tags = tuple(
            dict.fromkeys(
                _tag(c)
                for c in _categories(item.get("categories"), i)
                if isinstance(c, str) and c.strip()
            )
        )
        origin = {
            k: item[k]
            for k in ("id", "hash", "user_id", "agent_id", "run_id", "updated_at")
            if item.get(k) is not None
        }
        if not isinstance(item.get("metadata"), dict | None):
            raise PeerFormatError(f"memory {i}: 'metadata' must be an object or null")
        metadata = dict(item.get("metadata") or {})
        metadata["mem0"] = origin
        out.append(
            PeerMemory(
                content=text.strip(),
                tags=tags[:20],
                metadata=metadata,
                created_at=foreign_time(item.get("created_at")),
            )
        )
    return sorted(out, key=lambda m: _order(m.created_at))


def _categories(value: Any, index: int) -> list[Any]:
    """A memory's ``categories``: a list (its texts become tags), one text, or nothing. A
    text used to be read letter by letter (``"food"`` → tags f, o, d) and a number or a
    boolean stopped the import with a TypeError (HTTP 500)."""
    if value is None:
        return []
    if isinstance(value, str):
        return [value]
    if not isinstance(value, list):
        raise PeerFormatError(f"memory {index}: 'categories' must be a list of strings")
    for i, item in enumerate(value):
        if not isinstance(item, str):  # it was left out without a word
            raise PeerFormatError(
                f"memory {index}: 'categories' must be a list of strings; "
                f"categories[{i}] is {quoted(item)}"
            )
    return value


# -- MCP reference memory server ------------------------------------------------------------

# Spellings whose first letter misleads about the first sound: "a university", "an hour".
_A_BEFORE_VOWEL = ("uni", "use", "usu", "uti", "ura", "eu", "one", "once")
_AN_BEFORE_H = ("hour", "honest", "honor", "honour", "heir")


def _indefinite(noun: str) -> str:
    """``noun`` with "a" or "an" by its first sound, as far as its spelling tells (English
    entity types: "an organization", "a person", "a university", "an hour"); a noun that is
    not English words (ミカ, 人物) keeps "a"."""
    low = noun.strip().lower()
    vowel = low[:1] in ("a", "e", "i", "o", "u") and not low.startswith(_A_BEFORE_VOWEL)
    return f"{'an' if vowel or low.startswith(_AN_BEFORE_H) else 'a'} {noun}"


_RELATION_ENDS = ("from", "to", "relationType")  # a relation's names, none of them blank


def parse_mcp_memory(
    records: list[Any],
) -> tuple[list[PeerMemory], list[PeerRelation], list[PeerSkipped]]:
    """Observations (one memory each, or one per entity without any), relations, and the
    observations left out (blank text: nothing to remember), each with its reason."""
    memories: list[PeerMemory] = []
    relations: list[PeerRelation] = []
    skipped: list[PeerSkipped] = []
    for i, record in enumerate(records, start=1):
        if not isinstance(record, dict):
            raise PeerFormatError(f"line {i}: must be a JSON object")
        kind = record.get("type")
        if kind == "entity":
            name, entity_type = record.get("name"), record.get("entityType") or "entity"
            observations = record.get("observations") or []
            if isinstance(name, str) and is_blank(name):
                raise PeerFormatError(
                    f"line {i}: an entity's name {NON_BLANK_RULE} (got {quoted(name)})"
                )
            if not isinstance(name, str) or not isinstance(observations, list):
                raise PeerFormatError(
                    f"line {i}: an entity needs a name and a list of observations"
                )
            meta = {"mcp_memory": {"entity": name, "entity_type": entity_type}}
            tags = tuple(dict.fromkeys([_tag(name), _tag(str(entity_type))]))
            for j, observation in enumerate(observations):
                if not isinstance(observation, str):  # dropped silently before
                    raise PeerFormatError(
                        f"line {i}: entity {named(name)}: observations[{j}] must be a string, "
                        f"got {quoted(observation)}"
                    )
            texts = [o.strip() for o in observations if o.strip()]
            skipped += [
                PeerSkipped(i, name, j, "blank observation")
                for j, observation in enumerate(observations)
                if not observation.strip()
            ]
            for text in texts or [f"{name} is {_indefinite(str(entity_type))}"]:
                memories.append(
                    PeerMemory(
                        content=f"{name}: {text}" if texts else text,
                        tags=tags,
                        metadata=meta,
                        kind="fact",
                        entity=name,
                    )
                )
        elif kind == "relation":
            source, target, relation = (
                record.get("from"),
                record.get("to"),
                record.get("relationType"),
            )
            if not all(isinstance(v, str) for v in (source, target, relation)):
                raise PeerFormatError(f"line {i}: a relation needs from, to and relationType")
            blank = next((k for k in _RELATION_ENDS if is_blank(record[k])), None)
            if blank is not None:
                raise PeerFormatError(
                    f"line {i}: a relation's {blank} {NON_BLANK_RULE} (got {quoted(record[blank])})"
                )
            words = str(relation).replace("_", " ").strip()
            memory = PeerMemory(
                content=f"{source} {words} {target}",
                tags=tuple(dict.fromkeys([_tag(str(source)), _tag(str(target))])),
                metadata={"mcp_memory": {"from": source, "to": target, "relation_type": relation}},
                kind="fact",
            )
            relations.append(PeerRelation(str(source), str(target), str(relation), memory))
        else:
            got = "it has none" if kind is None else f"got {quoted(kind)}"
            raise PeerFormatError(f'line {i}: a record\'s "type" is "entity" or "relation" ({got})')
    return memories, relations, skipped
