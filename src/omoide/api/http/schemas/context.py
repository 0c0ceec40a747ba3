"""User and persona state, named blocks, context and per-persona settings."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, RootModel, create_model, model_validator
from typing_extensions import TypedDict

from omoide.api.http.schemas.common import (
    METADATA_DESCRIPTION,
    BlockName,
    Metadata,
    Request,
    Response,
    bounded_int,
    reply_shape,
)
from omoide.api.state_map import STATE_MAP_SCHEMA
from omoide.config import (
    PERSONA_SETTINGS,
    PersonaSettings,
    Setting,
    iana_zones,
    validate_setting_patch,
)
from omoide.engine.errors import named, quoted
from omoide.errors import InvalidInput
from omoide.model import DEFAULT_BLOCK_TYPE, DEFAULT_MAX_TOKENS, DEFAULT_PRIORITY
from omoide.service.blocks import BLOCK_TYPES, MAX_BLOCK_TOKENS, MAX_PRIORITY
from omoide.service.state import INTENSITY_PATTERN
from omoide.service.validate import MAX_INT, MIN_INT

__all__ = [
    "BlockList",
    "BlockOut",
    "BlockWrite",
    "ContextChanges",
    "ContextOut",
    "ContextUpdate",
    "OkReply",
    "SessionStartOut",
    "SettingsPatch",
    "SettingsReply",
    "StateChanged",
    "StateHistory",
    "StateMap",
    "StateReply",
    "WriteBlockReply",
]


class StateMap(RootModel[dict[str, Any]]):
    """A flat ``{key: value}`` map, e.g. ``{"name": "Rau"}``: keys 1-64 characters of any
    script (``名前``) but spaces, controls and ASCII punctuation other than '_' and '-',
    case-sensitive; values text (not blank, ≤ 2,000
    characters once trimmed, no control characters but tab and line breaks) or finite numbers
    (kept as their text), or null to close the key (its current value stops being true, its
    history is kept); ``emotion_intensity`` is a number 0-1; at most 50 keys."""

    model_config = ConfigDict(
        json_schema_extra={
            **STATE_MAP_SCHEMA,
            "properties": {
                "emotion_intensity": {
                    "description": "How strong the current emotion is: a number 0-1 (or its "
                    "decimal text, e.g. '0.5'); null closes it.",
                    "anyOf": [
                        {"type": "number", "minimum": 0, "maximum": 1},
                        {"type": "string", "pattern": INTENSITY_PATTERN},
                        {"type": "null"},
                    ],
                }
            },
        }
    )
    # The service (``service/state.py``) checks every key and value with the same rules.
    root: dict[str, Any]


class StateReply(Response):
    persona: str
    state: dict[str, str]


class StateChanged(Response):
    persona: str
    changed: list[str]


class StateEntryOut(Response):
    value: str
    valid_from: str
    valid_until: str | None
    is_current: bool


class StateHistory(Response):
    persona: str
    key: str | None
    history: list[StateEntryOut]


class BlockWrite(Request):
    """Create or update a block; fields not given (or null) keep their stored value, or a
    new block's default. ``content`` must fit ``max_tokens`` (the server's token estimate)."""

    block_name: BlockName
    content: str = Field(
        description="The block's text (may be empty); at most max_tokens tokens, the "
        "server's estimate."
    )
    block_type: Literal[BLOCK_TYPES] | None = Field(  # type: ignore[valid-type]
        None,
        description=f"What the block is for: one of {', '.join(BLOCK_TYPES)}; a new block's "
        f"default {DEFAULT_BLOCK_TYPE}.",
    )
    max_tokens: bounded_int(1, MAX_BLOCK_TOKENS) | None = Field(  # type: ignore[valid-type]
        None,
        description=f"The block's budget: 1-{MAX_BLOCK_TOKENS:,} tokens; the chat proxy and "
        f"the context cut the block to it; a new block's default {DEFAULT_MAX_TOKENS}.",
    )
    priority: bounded_int(-MAX_PRIORITY, MAX_PRIORITY) | None = Field(  # type: ignore[valid-type]
        None,
        description=f"{-MAX_PRIORITY:,} to {MAX_PRIORITY:,}: higher comes first (ties by "
        f"name) and is trimmed last; a new block's default {DEFAULT_PRIORITY}.",
    )
    metadata: Metadata | None = Field(
        None, description=f"{METADATA_DESCRIPTION} A new block's default {{}}."
    )


class BlockOut(Response):
    block_name: str
    content: str
    block_type: str
    max_tokens: int
    priority: int
    metadata: Metadata
    tokens: int
    created_at: str
    updated_at: str


class BlockList(Response):
    persona: str
    blocks: list[BlockOut]


class WriteBlockReply(Response):
    ok: Literal[True]
    block_name: str


class OkReply(Response):
    ok: Literal[True]


class ContextUpdate(Request):
    """``update_context``: give ``user_info`` and/or ``persona_state`` (one transaction)."""

    model_config = ConfigDict(json_schema_extra={"minProperties": 1})
    user_info: StateMap = Field(
        None, description="What is known of the user: keys to set or close, as PUT user-state."
    )
    persona_state: StateMap = Field(
        None, description="The persona's own state: keys to set or close, as PUT persona-state."
    )

    @model_validator(mode="after")
    def _one_given(self) -> ContextUpdate:
        if not self.model_fields_set:
            raise ValueError(
                'give user_info and/or persona_state, e.g. {"user_info": {"name": "Rau"}}'
            )
        return self


class ContextChanges(Response):
    persona: str
    changed: dict[str, list[str]]


@reply_shape
class PersonaSection(TypedDict):
    name: str
    state: Annotated[
        dict[str, str], Field(description="The persona's current state, key to value.")
    ]


@reply_shape
class UserSection(TypedDict):
    address: Annotated[
        str | None,
        Field(
            description="How the user is addressed; null when "
            "unknown or the section was trimmed to "
            "fit the budget."
        ),
    ]
    state: Annotated[dict[str, str], Field(description="What is known of the user, key to value.")]


@reply_shape
class SessionSection(TypedDict):
    last_session_at: Annotated[
        str | None, Field(description="When the previous session began; null for a first one.")
    ]
    since_last_session: Annotated[
        str,
        Field(description="The gap in words (e.g. '3 days ago'); empty when the line was trimmed."),
    ]


@reply_shape
class ContextBlock(TypedDict):
    block_name: str
    content: str
    priority: int
    max_tokens: int


@reply_shape
class TurnSource(TypedDict):
    event_id: int
    external_id: str | None


@reply_shape
class ConversationExcerpt(TypedDict):
    """Turns of one session not yet consolidated into notes: a date header, then one
    ``Speaker: text`` line per turn, each turn one source."""

    session_id: str
    said_at: str
    content: str
    sources: list[TurnSource]


@reply_shape
class ContextMemory(TypedDict):
    key: str
    content: str
    created_at: str
    strength: float


@reply_shape
class ContextStats(TypedDict):
    active: int
    superseded: int
    mean_strength: float
    links: int


@reply_shape
class ContextSections(TypedDict):
    """The context's parts as data (``text`` renders them); ``stats`` is null when its line
    was trimmed to fit the budget."""

    persona: PersonaSection
    user: UserSection
    session: SessionSection
    blocks: list[ContextBlock]
    last_conversation: list[ConversationExcerpt]
    recent_memories: list[ContextMemory]
    important_memories: list[ContextMemory]
    stats: ContextStats | None


class ContextOut(Response):
    persona: str
    text: str
    sections: ContextSections
    language: str
    tokens: int
    budget_tokens: int
    omitted: dict[str, int]


class SessionStartOut(ContextOut):
    session_id: str
    started_at: str
    previous_session_at: str | None


def _setting_type(setting: Setting) -> Any:
    if setting.type is bool:
        return bool
    if setting.name == "timezone":
        return Literal[tuple(sorted(iana_zones()))]
    if setting.choices:
        return Literal[setting.choices]
    bounds = {"ge": setting.minimum, "le": setting.maximum}
    if setting.type is int:
        return bounded_int(
            MIN_INT if setting.minimum is None else int(setting.minimum),
            MAX_INT if setting.maximum is None else int(setting.maximum),
        )
    return Annotated[float, Field(allow_inf_nan=False, **bounds)]


_SETTING_TYPES = {s.name: s.type for s in PERSONA_SETTINGS}
_JSON_TYPE_NAMES = {bool: "boolean (true or false)", int: "integer", float: "number"}


class _SettingsBase(Request):
    @model_validator(mode="before")
    @classmethod
    def _declared(cls, data: Any) -> Any:
        """The declarations' own check first (``config.validate_setting_patch``), so a bad
        value is refused with the message and ``setting`` field it has everywhere else."""
        if isinstance(data, dict):
            for name, value in data.items():  # text the declarations read ("true", "5") is
                kind = _SETTING_TYPES.get(name)  # for the environment and the dashboard form;
                if isinstance(value, str) and kind in (bool, int, float):  # said first, so
                    raise InvalidInput(
                        f"setting {named(name)} must be a JSON "  # "日本語" is not
                        f"{_JSON_TYPE_NAMES[kind]}, got the text {quoted(value)}",
                        setting=name,
                    )  # told to use the digits 0-9 as text
            validate_setting_patch({k: v for k, v in data.items() if v is not None})
            validate_setting_patch(
                {k: getattr(PersonaSettings(), k, None) for k, v in data.items() if v is None}
            )
        return data


SettingsPatch: type[BaseModel] = create_model(
    "SettingsPatch",
    __base__=_SettingsBase,
    __doc__="Overrides of per-persona settings (docs/settings.md); null resets one to its "
    "default; unknown names are refused.",
    **{
        s.name: (_setting_type(s) | None, Field(None, description=s.help)) for s in PERSONA_SETTINGS
    },
)


def _reply_type(setting: Setting) -> Any:
    kind = Literal[setting.choices] if setting.choices else setting.type
    return Annotated[kind, Field(description=setting.help)]


EffectiveSettings: Any = reply_shape(
    TypedDict(  # type: ignore[operator]
        "EffectiveSettings", {s.name: _reply_type(s) for s in PERSONA_SETTINGS}
    )
)
EffectiveSettings.__doc__ = (
    "Every per-persona setting's value in effect: the persona's "
    "override, else the server default (docs/settings.md)."
)
SettingOverrides: Any = reply_shape(
    TypedDict(  # type: ignore[operator]
        "SettingOverrides", {s.name: _reply_type(s) for s in PERSONA_SETTINGS}, total=False
    )
)
SettingOverrides.__doc__ = (
    "The settings this persona overrides (only those; the others follow the server default)."
)


class SettingsReply(Response):
    persona: str
    settings: EffectiveSettings
    overrides: SettingOverrides
