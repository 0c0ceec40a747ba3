"""The chat proxy's memory prompt (PrepareStep): blocks, state and recalled memories in a budget.

Pure: what the service read comes in (persona and user state, blocks by priority, the default
search's hits as :class:`Recalled`), one text for the system prompt comes out, with exactly what
it kept. Sections in display order: persona, user, blocks, memories. Over budget, items are
dropped from the end of the least valuable section first: memories (the weakest hit first) →
blocks (lowest priority first) → user state → persona state; a block or memory that could not
fit even beside the persona's name alone is left out first. Each block is first cut to its own
``max_tokens``, as ``get_context`` cuts it (``engine/block_text.py``); each memory to
``memory_line_tokens``. Dates are shown in ``tz``; a fact whose validity ended is marked as no
longer true, with the date it ended; a plan given up before it began, as cancelled. The
closing line asks to use the memories without reciting them; a section without memories (state
and blocks only) asks the same of what it holds, without calling it memories.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, tzinfo
from typing import Any

from omoide.engine.block_text import block_line, shown_blocks
from omoide.engine.compact_tokens import count_tokens as estimate_tokens
from omoide.engine.compact_tokens import cut_to_tokens as truncate_to_tokens
from omoide.engine.context import BlockText, user_address
from omoide.engine.dates import local_day
from omoide.engine.lang import Lang
from omoide.engine.tokens import fitting

__all__ = ["ChatPrompt", "Recalled", "assemble_chat_prompt", "into_system_prompt"]

DEFAULT_MEMORY_LINE_TOKENS = 150

_WORDS = {
    Lang.EN: {
        "title": "# What {persona} remembers (Omoide)",
        "persona": "## Persona",
        "user": "## User",
        "blocks": "## Memory blocks",
        "memories": "## Memories related to the user's message",
        "intro": "You are {persona}.",
        "address": 'Address the user as "{address}".',
        "closed": "no longer true since {until}",
        "cancelled": "planned, cancelled before it began",
        "excerpt": "conversation",
        "hint": "Use these memories when they help; do not recite them.",
        "hint_known": "Use this when it helps; do not recite it.",
    },
    Lang.JA: {
        "title": "# {persona} の記憶（Omoide）",
        "persona": "## ペルソナ",
        "user": "## ユーザー",
        "blocks": "## メモリブロック",
        "memories": "## ユーザーの発言に関係する記憶",
        "intro": "あなたは {persona} です。",
        "address": "ユーザーを「{address}」と呼んでください。",
        "closed": "{until} から無効",
        "cancelled": "予定、始まる前に取り消し",
        "excerpt": "会話",
        "hint": "役立つときに記憶を使い、そのまま読み上げないでください。",
        "hint_known": "役立つときに使い、そのまま読み上げないでください。",
    },
}


@dataclass(frozen=True)
class Recalled:
    """One search hit as the prompt shows it."""

    ident: str  # memory key, or "episode:<id>:<first event>-<last event>" (service/chat.py)
    content: str
    when: datetime | None  # created (note) or said (excerpt)
    valid_until: datetime | None = None  # set when the fact is closed
    excerpt: bool = False  # a conversation excerpt rather than a note
    never_held: bool = False  # a plan contradicted before it began (``Memory.never_held``)


@dataclass(frozen=True)
class ChatPrompt:
    text: str  # "" when nothing is known
    tokens: int
    persona_keys: tuple[str, ...]
    user_keys: tuple[str, ...]
    blocks: tuple[str, ...]
    memories: tuple[str, ...]  # idents, in the order shown


def assemble_chat_prompt(
    *,
    persona: str,
    lang: Lang,
    budget_tokens: int,
    persona_state: Mapping[str, str],
    user_state: Mapping[str, str],
    blocks: Sequence[BlockText],
    memories: Sequence[Recalled],
    tz: tzinfo = UTC,
    memory_line_tokens: int = DEFAULT_MEMORY_LINE_TOKENS,
) -> ChatPrompt:
    words = _WORDS[lang]
    persona_keys = sorted(persona_state)
    user_keys = sorted(user_state)
    title = words["title"].format(persona=persona)
    intro = words["intro"].format(persona=persona)
    hint_tokens = max(estimate_tokens(words["hint"]), estimate_tokens(words["hint_known"]))
    room = budget_tokens - estimate_tokens(title) - hint_tokens
    alone = room - estimate_tokens(words["persona"]) - estimate_tokens(intro)
    block_lines = fitting(
        [(b, block_line(b)) for b in shown_blocks(blocks)],
        alone - estimate_tokens(words["blocks"]),
    )
    memory_lines = fitting(
        [(m, _memory_line(m, words, tz, memory_line_tokens)) for m in memories],
        alone - estimate_tokens(words["memories"]),
    )
    fitted_blocks = [b for b, _ in block_lines]
    sections: list[tuple[str, list[str]]] = [
        (
            words["persona"],
            [intro, *(f"- {k}: {_one_line(persona_state[k])}" for k in persona_keys)],
        ),
        (
            words["user"],
            [
                *_address(user_state, words),
                *(f"- {k}: {_one_line(user_state[k])}" for k in user_keys),
            ],
        ),
        (words["blocks"], [line for _, line in block_lines]),
        (words["memories"], [line for _, line in memory_lines]),
    ]
    has_address = 1 if user_address(user_state) else 0
    kept = _trim(sections, room)
    if not any(kept[1:]):  # nothing but "You are X": not worth a system message
        return ChatPrompt("", 0, (), (), (), ())
    body = [
        line
        for (heading, lines), n in zip(sections, kept, strict=True)
        if n
        for line in (heading, *lines[:n])
    ]
    # the closing line speaks of memories only when the section shows some (kept[3]): a
    # section of state and blocks alone is told as what is known, not as memories
    hint = words["hint"] if kept[3] else words["hint_known"]
    text = "\n".join([title, *body, hint])
    return ChatPrompt(
        text=text,
        tokens=estimate_tokens(text),
        persona_keys=tuple(persona_keys[: max(kept[0] - 1, 0)]),
        user_keys=tuple(user_keys[: max(kept[1] - has_address, 0)]),
        blocks=tuple(b.name for b in fitted_blocks[: kept[2]]),
        memories=tuple(m.ident for m, _ in memory_lines[: kept[3]]),
    )


def _trim(sections: list[tuple[str, list[str]]], budget: int) -> list[int]:
    """Items kept per section: drop from the end, memories first, persona last."""
    kept = [len(lines) for _, lines in sections]
    cost = [[estimate_tokens(line) for line in lines] for _, lines in sections]
    heading = [estimate_tokens(h) for h, _ in sections]
    total = sum(heading[i] + sum(cost[i]) for i in range(len(sections)) if kept[i])
    for i in reversed(range(len(sections))):
        while total > budget and kept[i]:
            kept[i] -= 1
            total -= cost[i][kept[i]] + (0 if kept[i] else heading[i])
    return kept


def _address(user_state: Mapping[str, str], words: dict[str, str]) -> list[str]:
    address = user_address(user_state)
    return [words["address"].format(address=_one_line(address))] if address else []


def _memory_line(memory: Recalled, words: dict[str, str], tz: tzinfo, max_tokens: int) -> str:
    marks = []
    if memory.when is not None:
        marks.append(local_day(memory.when, tz).isoformat())
    if memory.excerpt:
        marks.append(words["excerpt"])
    if memory.never_held:  # its end is its planned start: no "no longer true since" then
        marks.append(words["cancelled"])
    elif memory.valid_until is not None:
        until = local_day(memory.valid_until, tz).isoformat()
        marks.append(words["closed"].format(until=until))
    content = memory.content.strip()
    if memory.excerpt:  # an excerpt's own "[date]" header line is already in the marks
        lines = [ln for ln in content.splitlines() if ln.strip()]
        if lines and lines[0].startswith("[") and lines[0].endswith("]"):
            lines = lines[1:]
        content = " / ".join(ln.strip() for ln in lines)
    head = f"- [{', '.join(marks)}] " if marks else "- "
    return head + truncate_to_tokens(_one_line(content), max_tokens)


def _one_line(text: str) -> str:
    return " ".join(text.split())


def into_system_prompt(messages: Sequence[dict[str, Any]], text: str) -> list[dict[str, Any]]:
    """``messages`` with ``text`` appended to their leading system (or developer) message, after
    a blank line (a content given as parts gets it as one more text part), or, when they open
    with no such message, as a system message first.

    Why: what Omoide adds (the memory section, the stage-4 summary) must never be a second
    system message, nor one after the first: many chat templates take a system message only
    as the first (Mistral's raise on any other), and some providers refuse or move a
    later one. One leading system message is what every template and provider takes."""
    if not text:
        return list(messages)
    first = messages[0] if messages else {}
    if first.get("role") not in ("system", "developer"):
        return [{"role": "system", "content": text}, *messages]
    content = first.get("content")
    if isinstance(content, list):
        merged: Any = [*content, {"type": "text", "text": text}]
    else:
        merged = f"{content}\n\n{text}" if content else text
    return [{**first, "content": merged}, *messages[1:]]
