"""Chat compaction (CompressStep, spec §LLM Summary Compaction): pure stages over OpenAI messages.

A request's messages are the leading system messages (the *head*, never compacted) and then
*turns*: a turn opens with a user message and holds every assistant and tool message up to the
next one, so an assistant ``tool_calls`` message and its ``tool`` results always share a turn and
are kept, cut or dropped together. The last ``keep_recent`` turns (at least the latest one) are
*recent*; every earlier turn is *old*.

When the request is over ``budget_tokens`` the stages run in order and stop as soon as it fits:

1. trim: in old messages, trailing spaces, runs of blank lines and long lines are cut;
2. clear: the bodies of old tool results are replaced by a note (the call stays visible);
3. truncate: old messages, oldest first, are cut to 256 tokens, then 128, then 64;
4. summary: the turns before the latest ones the budget holds (at least ``keep_recent``)
   become one ``[過去の会話要約] …`` paragraph at the end of the leading system message, or the
   system message when there is none (never a second system message, which many chat
   templates and providers refuse or misplace); the caller produces the text (an LLM, or
   ``compact_summary.offline_summary``), see :func:`summary_split` and :func:`apply_summary`.
   When even that does not fit, the summary is cut, then the recent turns but the latest are
   trimmed and dropped oldest first (never the summary cut to nothing while they can make room
   for some of it: only the head and the latest turn alone leave it out).

The per-message steps are ``engine/compact_steps.py``. Token counts use
:func:`omoide.engine.tokens.estimate_tokens` (offline), through
``engine/compact_tokens.py`` (what a message and a request cost). No I/O, no clock.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import partial

from omoide.engine.chat_prompt import into_system_prompt
from omoide.engine.compact_steps import (
    CLEARED_TOOL_RESULT,
    clear_tool_result,
    trim_message,
    truncate_message,
)
from omoide.engine.compact_tokens import (
    MESSAGE_OVERHEAD,
    Message,
    count_tokens,
    cut_to_tokens,
    message_text,
    message_tokens,
    request_tokens,
    tools_tokens,
)

__all__ = [
    "CLEARED_TOOL_RESULT",
    "SUMMARY_PREFIX",
    "CompactParams",
    "Compaction",
    "Split",
    "Turns",
    "apply_summary",
    "compact_mechanical",
    "count_tokens",
    "cut_to_tokens",
    "message_text",
    "message_tokens",
    "minimum_tokens",
    "request_tokens",
    "split_turns",
    "summary_room",
    "summary_split",
    "summary_text",
    "tools_tokens",
]

SUMMARY_PREFIX = "[過去の会話要約] "
# Stage 3 stops at 64 tokens a message: cut shorter, a message says little, and stage 4 (the
# summary beside whole recent turns) keeps more (bench/results/chat.md).
TRUNCATE_CAPS = (256, 128, 64)


@dataclass(frozen=True)
class CompactParams:
    budget_tokens: int
    keep_recent: int = 6
    line_max_tokens: int = 200  # stage 1: a longer line in an old message is cut to this
    fixed_tokens: int = 0  # tokens of the request outside its messages (the tools list)


@dataclass(frozen=True)
class Compaction:
    messages: tuple[Message, ...]
    stage: int  # 0: untouched; 1-3 mechanical; 4 summary
    tokens_before: int
    tokens_after: int


@dataclass(frozen=True)
class Turns:
    head: tuple[Message, ...]  # the leading system messages
    turns: tuple[tuple[Message, ...], ...]


@dataclass(frozen=True)
class Split:
    """Stage 4's cut: ``old`` is summarised, ``recent`` kept; ``old_turns`` counts turns."""

    head: tuple[Message, ...]
    old: tuple[Message, ...]
    recent: tuple[tuple[Message, ...], ...]
    old_turns: int


_tokens = count_tokens


# -- turns ----------------------------------------------------------------------------------


def split_turns(messages: Sequence[Message]) -> Turns:
    """Leading system messages, then turns (each opened by a user message)."""
    start = 0
    while start < len(messages) and messages[start].get("role") in ("system", "developer"):
        start += 1
    turns: list[list[Message]] = []
    for message in messages[start:]:
        if not turns or message.get("role") == "user":
            turns.append([])
        turns[-1].append(message)
    return Turns(head=tuple(messages[:start]), turns=tuple(tuple(t) for t in turns))


def _flatten(turns: Iterable[Iterable[Message]]) -> list[Message]:
    return [m for turn in turns for m in turn]


def _recent_count(n_turns: int, keep_recent: int) -> int:
    return min(n_turns, max(keep_recent, 1))


# -- stages 1-3 -----------------------------------------------------------------------------


def compact_mechanical(messages: Sequence[Message], params: CompactParams) -> Compaction:
    """Stages 1-3 on the old turns, stopping at the first that brings the request in budget."""
    before = request_tokens(messages, fixed_tokens=params.fixed_tokens)
    if before <= params.budget_tokens:
        return Compaction(tuple(messages), 0, before, before)
    parts = split_turns(messages)
    n_old = len(parts.turns) - _recent_count(len(parts.turns), params.keep_recent)
    old, recent = _flatten(parts.turns[:n_old]), _flatten(parts.turns[n_old:])
    # Counting is the cost here (a regex pass per message): count each message once, and
    # again only when a step changed it.
    counts = [message_tokens(m) for m in old]
    total = request_tokens([*parts.head, *recent], fixed_tokens=params.fixed_tokens) + sum(counts)
    stage = 0

    def apply(i: int, new: Message) -> None:
        nonlocal total
        if new is not old[i]:
            old[i], count = new, message_tokens(new)
            total += count - counts[i]
            counts[i] = count

    for number, step in _steps(params)[:2]:  # stages 1 and 2: every old message
        if not old or total <= params.budget_tokens:
            break
        stage = number
        for i, message in enumerate(old):
            apply(i, step(message))
    for cap in TRUNCATE_CAPS:  # stage 3: oldest first, so the newer old turns keep more
        if not old or total <= params.budget_tokens:
            break
        stage = 3
        for i, message in enumerate(old):
            if total <= params.budget_tokens:
                break
            apply(i, truncate_message(message, cap))
    return Compaction((*parts.head, *old, *recent), stage, before, total)


def _steps(params: CompactParams) -> list[tuple[int, Callable[[Message], Message]]]:
    """Stages 1-3 as per-message steps, each applied on top of the previous ones."""
    return [
        (1, lambda m: trim_message(m, params.line_max_tokens)),
        (2, clear_tool_result),
        *((3, partial(truncate_message, cap=cap)) for cap in TRUNCATE_CAPS),
    ]


# -- stage 4 --------------------------------------------------------------------------------


def summary_split(
    messages: Sequence[Message], keep_recent: int, *, step: int = 1, room_tokens: int | None = None
) -> Split:
    """Old turns to summarise and recent turns to keep.

    At least ``keep_recent`` turns (and the latest) stay; with ``room_tokens`` (what the budget
    leaves beside the head and the summary) older turns stay too while they fit, so a larger
    budget keeps more of the conversation verbatim. The cut is then rounded down to a multiple
    of ``step`` turns, so that as a chat grows the summarised prefix stays the same for several
    requests (and its cached summary is reused); turns kept only by that rounding are compacted
    first by :func:`apply_summary`.
    """
    parts = split_turns(messages)
    n_turns = len(parts.turns)
    n_recent = _recent_count(n_turns, keep_recent)
    if room_tokens is not None:
        used = sum(message_tokens(m) for turn in parts.turns[n_turns - n_recent :] for m in turn)
        while n_recent < n_turns:
            cost = sum(message_tokens(m) for m in parts.turns[n_turns - n_recent - 1])
            if used + cost > room_tokens:
                break
            used += cost
            n_recent += 1
    n_old = n_turns - n_recent
    if n_old >= step > 1:
        n_old -= n_old % step
    return Split(
        head=parts.head,
        old=tuple(_flatten(parts.turns[:n_old])),
        recent=parts.turns[n_old:],
        old_turns=n_old,
    )


def summary_room(messages: Sequence[Message], params: CompactParams, max_chars: int) -> int:
    """Tokens left for kept turns once the head and a summary of ``max_chars`` are counted
    (the summary at two characters a token: between English and Japanese; its marker and
    where it goes counted exactly, as :func:`apply_summary` counts them)."""
    head = split_turns(messages).head
    return (
        params.budget_tokens
        - request_tokens(head, fixed_tokens=params.fixed_tokens)
        - _note_cost(head, SUMMARY_PREFIX)
        - max_chars // 2
    )


def _note_cost(head: Sequence[Message], note: str) -> int:
    """What folding ``note`` into the request adds to its tokens, exactly: the note's own,
    plus a message's overhead when there is no leading system message to join (then it is one
    of its own). Joined after a blank line (or as one more text part, read after a newline),
    its runs never merge with the prompt's, so the count adds up."""
    if not note:
        return 0
    folds = bool(head) and head[0].get("role") in ("system", "developer")
    return _tokens(note) + (0 if folds else MESSAGE_OVERHEAD)


def summary_text(text: str, max_chars: int) -> str:
    """The summary as the system prompt shows it: ``[過去の会話要約] …``, on one line, at most
    ``max_chars`` characters after the marker."""
    body = " ".join(text.split())
    if len(body) > max_chars:
        body = body[: max(max_chars - 1, 0)].rstrip() + "…"
    return SUMMARY_PREFIX + body


def _joined(
    head: Sequence[Message], note: str, recent: Iterable[Iterable[Message]]
) -> list[Message]:
    """The request: the head with the summary ``note`` (when there is one) folded into its
    leading system message (one system message, never a second one: see
    :func:`~omoide.engine.chat_prompt.into_system_prompt`), then the kept turns."""
    return into_system_prompt([*head, *_flatten(recent)], note)


class _Kept:
    """The kept turns with each message's tokens, so that a step recounts only the messages
    it changed and the request's total is never recounted from scratch."""

    def __init__(self, turns: Iterable[Iterable[Message]]) -> None:
        self.turns = [list(turn) for turn in turns]
        self.counts = [[message_tokens(m) for m in turn] for turn in self.turns]
        self.tokens = sum(map(sum, self.counts))

    def change(self, upto: int, step: Callable[[Message], Message]) -> None:
        """``step`` applied to every message of the turns before ``upto``."""
        for turn, counts in zip(self.turns[:upto], self.counts[:upto], strict=True):
            for i, message in enumerate(turn):
                new = step(message)
                if new is not message:
                    turn[i], count = new, message_tokens(new)
                    self.tokens += count - counts[i]
                    counts[i] = count

    def drop_oldest(self) -> None:
        self.turns.pop(0)
        self.tokens -= sum(self.counts.pop(0))


def apply_summary(
    split: Split, summary: str, *, max_chars: int, params: CompactParams, tokens_before: int
) -> Compaction:
    """Head + the summary + the recent turns; squeezed further only if that is still over.

    Each message is counted once, and again only when a step changed it; the summary costs
    exactly what folding it into the system message adds (:func:`_note_cost`), so a summary
    cut to the room left is as long as the budget allows."""
    kept = _Kept(split.recent)
    base = request_tokens(split.head, fixed_tokens=params.fixed_tokens)
    # Nothing to summarise, or no summary made (an empty "[過去の会話要約]" only adds tokens):
    # only the squeeze below.
    if not split.old or not summary.strip():
        _squeeze(0, kept, base, params)
        return _result(split.head, "", kept, base, tokens_before)
    note = summary_text(summary, max_chars)
    cost = _note_cost(split.head, note)
    # Turns kept only because the cut moves in steps are compacted like old ones first.
    extra = len(kept.turns) - _recent_count(len(kept.turns), params.keep_recent)
    for _, step in _steps(params):
        if extra <= 0 or base + kept.tokens + cost <= params.budget_tokens:
            break
        kept.change(extra, step)
    if base + kept.tokens + cost <= params.budget_tokens:
        return _result(split.head, note, kept, base + cost, tokens_before)
    body = note[len(SUMMARY_PREFIX) :]

    def fitted(least: int = 0) -> str:
        """The summary cut to the room the head and the recent turns leave (at least
        ``least`` tokens of it)."""
        room = params.budget_tokens - base - kept.tokens - _note_cost(split.head, SUMMARY_PREFIX)
        return SUMMARY_PREFIX + cut_to_tokens(body, max(room, least))

    # The squeeze makes room for at least one token of the summary, not for its bare marker:
    # a marker with nothing after it is left out below, so recent turns that left the room at
    # exactly the marker kept the whole summary out although dropping one made room for it.
    _squeeze(_note_cost(split.head, fitted(1)), kept, base, params)
    # Squeezing the recent turns (their tool results, long messages) may free the room the cut
    # took from the summary: give it back, up to the whole summary.
    note = fitted()
    # The latest turn alone over the budget leaves no room: an empty "[過去の会話要約]" only
    # added tokens to a request already over, so it is left out.
    if not note[len(SUMMARY_PREFIX) :].strip():
        note = ""
    return _result(split.head, note, kept, base + _note_cost(split.head, note), tokens_before)


def _result(
    head: Sequence[Message], note: str, kept: _Kept, fixed: int, tokens_before: int
) -> Compaction:
    """The stage-4 request; ``fixed`` counts the head, the request's overhead and the note."""
    return Compaction(tuple(_joined(head, note, kept.turns)), 4, tokens_before, fixed + kept.tokens)


def _squeeze(note_cost: int, kept: _Kept, base: int, params: CompactParams) -> None:
    """Still over: trim, clear and cut the kept turns but the latest, then drop them (in
    ``kept`` itself, which the caller reads after)."""
    fixed = base + note_cost
    for cap in (0, *TRUNCATE_CAPS):
        if fixed + kept.tokens <= params.budget_tokens:
            break
        kept.change(
            len(kept.turns) - 1,
            partial(truncate_message, cap=cap)
            if cap
            else lambda m: trim_message(clear_tool_result(m), params.line_max_tokens),
        )
    while fixed + kept.tokens > params.budget_tokens and len(kept.turns) > 1:
        kept.drop_oldest()  # whole turns, so a tool call never loses its result


def minimum_tokens(messages: Sequence[Message], params: CompactParams) -> int:
    """The smallest request compaction can produce: head, an empty summary and the latest turn
    (the head and the latest turn are never touched). Any budget at least this is reachable.
    The summary's marker is counted as :func:`apply_summary` counts its room, so that no
    summary is asked for that would then find none."""
    parts = split_turns(messages)
    latest = list(parts.turns[-1]) if parts.turns else []
    marker = _note_cost(parts.head, SUMMARY_PREFIX) if len(parts.turns) > 1 else 0
    return request_tokens([*parts.head, *latest], fixed_tokens=params.fixed_tokens) + marker
