"""The text of ``session_begin`` / ``get_context``, assembled within a token budget (pure).

Input is what the service read (states, memories, stats, blocks, time since the last session);
output is one text for the LLM plus, as data, exactly what the text kept. No I/O, no clock:
``since_last_session`` and the time zone come in as arguments. English and Japanese.

Sections, in display order: persona, user, session, blocks (only when the caller passes them),
last conversation, recent memories, important memories, stats. Each section lists its items most
valuable first. Over budget (``estimate_tokens``), items are dropped from the end of the least
valuable section first, in :data:`TRIM_ORDER`: stats → important memories (weakest first) → last
conversation → recent memories (oldest first) → blocks (lowest priority first) → session → user
→ persona; a block too large to fit beside the persona's name alone is left out first. A
section whose items are all gone loses its heading too. Lines are joined by
newlines, which cost nothing and split the estimator's runs, so a text's estimate is exactly the
sum of its lines' estimates. The sections, the input and the result are ``context_model`` (their
names are re-exported here); the fixed wording in both languages is ``context_words``.

The last conversation is what was said in conversations that ended but are not yet consolidated
into notes (the turns themselves): it holds at most :data:`CONVERSATION_SHARE` of the budget,
keeps the user's turns before the others and newer turns before older ones, and shows the turns
it keeps in the order they were said.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import timedelta, tzinfo

from omoide.engine.block_text import block_line, shown_blocks
from omoide.engine.context_model import (
    DISPLAY_ORDER,
    TRIM_ORDER,
    AssembledContext,
    BlockText,
    ContextInput,
    ContextStats,
    MemoryLine,
    Section,
    TurnLine,
)
from omoide.engine.context_words import LABELS, TEXT
from omoide.engine.counts import how_many
from omoide.engine.dates import local_day
from omoide.engine.elapsed import JUST_NOW_SECONDS, time_since_words
from omoide.engine.lang import Lang, is_japanese
from omoide.engine.tokens import estimate_tokens, fitting, truncate_to_tokens

__all__ = [
    "ADDRESS_KEYS",
    "CONVERSATION_SHARE",
    "DEFAULT_MEMORY_LINE_TOKENS",
    "TRIM_ORDER",
    "AssembledContext",
    "BlockText",
    "ContextInput",
    "ContextStats",
    "MemoryLine",
    "Section",
    "TurnLine",
    "assemble_context",
    "choose_language",
    "time_since_words",
    "user_address",
]

DEFAULT_MEMORY_LINE_TOKENS = 120  # one memory never takes more of the budget than this
# The last conversation's turns never take more than this share of the budget, so that a long
# conversation cannot push the user's long-term memories out of the context.
CONVERSATION_SHARE = 0.5
ADDRESS_KEYS = ("preferred_address", "nickname", "name")  # how to call the user, best first
_PERSONA_KEYS = ("emotion", "emotion_intensity", "mood", "current_activity", "goals")


def user_address(user_state: Mapping[str, str]) -> str | None:
    """How to call the user: preferred_address → nickname → name; None when none is known."""
    return next((user_state[k] for k in ADDRESS_KEYS if user_state.get(k)), None)


def choose_language(setting: str, samples: Sequence[str]) -> Lang:
    """The ``language`` setting; for "auto", Japanese when more than half of ``samples`` (the
    user's name and the recent memories) are Japanese text, else English."""
    if setting in (Lang.EN, Lang.JA):
        return Lang(setting)
    texts = [s for s in samples if s.strip()]
    japanese = sum(1 for s in texts if is_japanese(s))
    return Lang.JA if texts and japanese * 2 > len(texts) else Lang.EN


@dataclass(frozen=True)
class _Parts:
    """The input ordered and cut as it is shown; what survives trimming is a prefix of each."""

    persona_keys: list[str]
    user_keys: list[str]
    blocks: list[BlockText]
    conversation: list[TurnLine]  # most valuable first (see _by_value)
    recent: list[MemoryLine]
    important: list[MemoryLine]


def assemble_context(
    inp: ContextInput, *, budget_tokens: int, memory_line_tokens: int = DEFAULT_MEMORY_LINE_TOKENS
) -> AssembledContext:
    """Render every section, trim to ``budget_tokens`` (module docstring), report what stayed."""
    words = TEXT[inp.language]
    order_said = {t.event_id: i for i, t in enumerate(inp.conversation)}
    chosen, capped = _within_share(
        _by_value(inp.conversation),
        inp.tz,
        int(budget_tokens * CONVERSATION_SHARE),
        memory_line_tokens,
    )
    title = words["title"].format(persona=inp.persona)
    room = budget_tokens - estimate_tokens(title)
    blocks, oversize = _fitting_blocks(shown_blocks(inp.blocks), room, inp.persona, words)
    parts = _Parts(
        persona_keys=_ordered(inp.persona_state, _PERSONA_KEYS),
        user_keys=_ordered(inp.user_state, ADDRESS_KEYS[::-1]),
        blocks=blocks,
        conversation=chosen,
        recent=[_cut(m, memory_line_tokens) for m in inp.recent],
        important=[_cut(m, memory_line_tokens) for m in inp.important],
    )
    lines = _section_lines(inp, parts, words)
    kept = _trim(lines, room, words)
    shown = {s: lines[s][: kept[s]] for s in Section}
    said = sorted(
        parts.conversation[: kept[Section.CONVERSATION]], key=lambda t: order_said[t.event_id]
    )
    shown[Section.CONVERSATION] = _turn_lines(said, inp.tz, words["another_conversation"])
    text = _render(title, shown, kept, words)
    if estimate_tokens(text) > budget_tokens:  # the separators did not fit: the turns alone
        shown[Section.CONVERSATION] = [_turn_line(t, inp.tz) for t in said]
        text = _render(title, shown, kept, words)
    if estimate_tokens(text) > budget_tokens:  # only when even the persona line does not fit
        text = truncate_to_tokens(text, budget_tokens)
    return AssembledContext(
        text=text,
        tokens=estimate_tokens(text),
        budget_tokens=budget_tokens,
        language=inp.language,
        user_address=user_address(inp.user_state) if kept[Section.USER] else None,
        last_session=time_since_words(inp.since_last_session, inp.language)
        if kept[Section.SESSION]
        else "",
        persona_state=_kept_state(inp.persona_state, parts.persona_keys, kept[Section.PERSONA]),
        user_state=_kept_state(inp.user_state, parts.user_keys, kept[Section.USER]),
        blocks=tuple(parts.blocks[: kept[Section.BLOCKS]]),
        conversation=tuple(said),
        recent=tuple(parts.recent[: kept[Section.RECENT]]),
        important=tuple(parts.important[: kept[Section.IMPORTANT]]),
        stats=inp.stats if kept[Section.STATS] else None,
        omitted=_omitted(lines, kept, capped, oversize),
    )


def _section_lines(
    inp: ContextInput, parts: _Parts, words: dict[str, str]
) -> dict[Section, list[str]]:
    """Every item of every section as text, most valuable first within a section."""
    stats = inp.stats
    return {
        Section.PERSONA: [
            words["intro"].format(persona=inp.persona),
            *_state_lines(inp.persona_state, parts.persona_keys, inp.language),
        ],
        Section.USER: [
            _address_line(inp.user_state, words),
            *_state_lines(inp.user_state, parts.user_keys, inp.language),
        ],
        Section.SESSION: [_session_line(inp.since_last_session, inp.language)],
        Section.BLOCKS: [block_line(b) for b in parts.blocks],
        Section.CONVERSATION: [_turn_line(t, inp.tz) for t in parts.conversation],
        Section.RECENT: [_memory_line(m, inp.tz) for m in parts.recent],
        Section.IMPORTANT: [
            _memory_line(m, inp.tz) + words["strength"].format(value=m.strength)
            for m in parts.important
        ],
        Section.STATS: [
            words["stats_line"].format(
                active=stats.active,
                active_words=how_many(stats.active, "active memory"),
                superseded=stats.superseded,
                mean=stats.mean_strength,
                links=stats.links,
                links_words=how_many(stats.links, "link"),
            )
        ],
    }


def _by_value(turns: Sequence[TurnLine]) -> list[TurnLine]:
    """The turns most valuable first: the user's own words before the persona's and others',
    then the newer before the older (the end of a conversation is where it was left)."""
    order = sorted(range(len(turns)), key=lambda i: (turns[i].role != "user", -i))
    return [turns[i] for i in order]


def _within_share(
    ranked: list[TurnLine], tz: tzinfo, share: int, line_tokens: int
) -> tuple[list[TurnLine], int]:
    """The most valuable turns (each cut to one line of ``line_tokens``) whose lines fit in
    ``share`` tokens, and how many were left. Only the turns looked at are cut and counted, so
    a long conversation costs no more than the part of it that fits."""
    total, kept = 0, []
    for turn in ranked:
        cut = replace(turn, content=truncate_to_tokens(_one_line(turn.content), line_tokens))
        cost = estimate_tokens(_turn_line(cut, tz))
        if total + cost > share:
            break
        total += cost
        kept.append(cut)
    return kept, len(ranked) - len(kept)


def _fitting_blocks(
    blocks: list[BlockText], room: int, persona: str, words: dict[str, str]
) -> tuple[list[BlockText], int]:
    """The blocks that could be shown beside the persona's name alone (``tokens.fitting``),
    and how many could not (counted in ``omitted``)."""
    alone = room - sum(
        estimate_tokens(text)
        for text in (
            "## " + words[Section.PERSONA.value],
            words["intro"].format(persona=persona),
            "## " + words[Section.BLOCKS.value],
        )
    )
    shown = [b for b, _ in fitting([(b, block_line(b)) for b in blocks], alone)]
    return shown, len(blocks) - len(shown)


def _omitted(
    lines: dict[Section, list[str]], kept: dict[Section, int], capped: int, oversize: int
) -> dict[str, int]:
    """Items dropped per section: by the trim, plus the turns beyond the conversation's share
    and the blocks too large for the budget."""
    out = {s.value: len(lines[s]) - kept[s] for s in Section if kept[s] < len(lines[s])}
    for section, extra in ((Section.CONVERSATION, capped), (Section.BLOCKS, oversize)):
        if extra:
            out[section.value] = out.get(section.value, 0) + extra
    return out


def _kept_state(state: Mapping[str, str], keys: list[str], kept_lines: int) -> dict[str, str]:
    """The state lines that stayed; a section's first line is its intro, not a state line."""
    return {key: state[key] for key in keys[: max(kept_lines - 1, 0)]}


def _trim(
    lines: dict[Section, list[str]], budget: int, words: dict[str, str]
) -> dict[Section, int]:
    """How many items of each section stay: drop from the ends, in TRIM_ORDER, until it fits."""
    kept = {s: len(items) for s, items in lines.items()}
    cost = {s: [estimate_tokens(line) for line in items] for s, items in lines.items()}
    heading = {s: estimate_tokens("## " + words[s.value]) for s in Section}
    total = sum(heading[s] + sum(cost[s]) for s in Section if kept[s])
    for section in TRIM_ORDER:
        while total > budget and kept[section]:
            kept[section] -= 1
            total -= cost[section][kept[section]]
            if not kept[section]:
                total -= heading[section]
    return kept


def _ordered(state: Mapping[str, str], first: Sequence[str]) -> list[str]:
    """The well-known keys in their order, then every other key alphabetically."""
    return [k for k in first if k in state] + sorted(k for k in state if k not in first)


def _state_lines(state: Mapping[str, str], keys: Sequence[str], lang: Lang) -> list[str]:
    labels = LABELS[lang]
    return [f"- {labels.get(key, key)}: {_one_line(state[key])}" for key in keys]


def _address_line(user_state: Mapping[str, str], words: dict[str, str]) -> str:
    address = user_address(user_state)
    return (
        words["no_address"]
        if address is None
        else words["address"].format(address=_one_line(address))
    )


def _session_line(elapsed: timedelta | None, lang: Lang) -> str:
    words = TEXT[lang]
    if elapsed is None:
        return words["first"]
    if elapsed.total_seconds() < JUST_NOW_SECONDS:
        return words["just_now"]
    return words["since"].format(words=time_since_words(elapsed, lang))


def _cut(memory: MemoryLine, max_tokens: int) -> MemoryLine:
    return replace(memory, content=truncate_to_tokens(_one_line(memory.content), max_tokens))


def _memory_line(memory: MemoryLine, tz: tzinfo) -> str:
    return f"- [{local_day(memory.created_at, tz).isoformat()}] {memory.content}"


def _render(
    title: str,
    shown: Mapping[Section, list[str]],
    kept: Mapping[Section, int],
    words: Mapping[str, str],
) -> str:
    return "\n".join(
        [
            title,
            *(
                line
                for s in DISPLAY_ORDER
                if kept[s]
                for line in ("## " + words[s.value], *shown[s])
            ),
        ]
    )


def _turn_lines(said: Sequence[TurnLine], tz: tzinfo, separator: str) -> list[str]:
    """The turns in the order said, a ``separator`` line where another session's begin:
    the section holds up to three conversations, which read as one without it."""
    out: list[str] = []
    for before, turn in zip([None, *said], said, strict=False):
        if before is not None and before.session_id != turn.session_id:
            out.append(separator)
        out.append(_turn_line(turn, tz))
    return out


def _turn_line(turn: TurnLine, tz: tzinfo) -> str:
    return (
        f"- [{local_day(turn.said_at, tz).isoformat()}] {_one_line(turn.speaker)}: {turn.content}"
    )


def _one_line(text: str) -> str:
    return " ".join(text.split())
