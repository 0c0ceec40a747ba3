"""CompressStep: the four compaction stages over a chat request, with the stage-4 summary.

Stages 1-3 and the cut for stage 4 are pure (``engine/compact.py``); this module adds what needs
ports: the LLM summary (one call, Japanese prompt unless the conversation is not Japanese) and a
bounded in-memory cache of summaries keyed by a hash of the summarised messages.

Trigger / why / outcome:
- over ``chat_budget_tokens`` after stages 1-3, with ``context_use_llm_summary`` on, an LLM
  configured and at least :data:`MIN_TURNS_FOR_LLM` turns → the LLM summarises the old turns;
  when it fails (the LLM's error, a timeout, or any other exception), the stage-3 result is
  sent as it is (spec §Stage 4, フォールバック: a failed summary never fails the chat).
- a summary call failed (an error, a timeout) less than ``cooldown_s`` ago in this process → the
  stage-3 result is sent without calling the LLM (``summary: "cooldown"``): a hanging LLM would
  otherwise hold every chat request for ``OMOIDE_LLM_TIMEOUT``. A request already waiting on its
  own summary call when the cool-down starts stops waiting and is sent the same way (the call
  runs in a thread of its own and, should it still answer, its summary is cached for the next
  request). Cached summaries are still used; the first call after the cool-down tries the LLM
  again.
- the head and the latest turn alone over the budget → no summary at all (none would fit): the
  other turns are dropped, the LLM is not asked, and a warning is logged.
- no LLM (or the setting off, or a short chat) → the offline extractive summary (the consolidation
  engine's notes of those turns), so compaction always ends within the budget when it can.
- the cut moves :data:`SUMMARY_STEP` turns at a time and a longer prefix starts from the cached
  summary of a shorter one, so a long chat is summarised once per few turns, not per request.
"""

from __future__ import annotations

import contextvars
import hashlib
import json
import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from omoide.config import PersonaSettings
from omoide.engine.compact import (
    Compaction,
    CompactParams,
    Split,
    apply_summary,
    compact_mechanical,
    message_text,
    minimum_tokens,
    summary_room,
    summary_split,
    tools_tokens,
)
from omoide.engine.compact_summary import offline_summary
from omoide.engine.lang import Lang, detect_lang
from omoide.engine.tokens import estimate_tokens, truncate_to_tokens
from omoide.errors import OmoideError
from omoide.llm.base import LLM, Message

__all__ = ["DEFAULT_COOLDOWN_S", "MIN_TURNS_FOR_LLM", "SUMMARY_STEP", "Compressed", "Compressor"]

logger = logging.getLogger(__name__)

MIN_TURNS_FOR_LLM = 6  # spec: a summary is only worth an LLM call with enough history
SUMMARY_STEP = 4  # turns the summarised prefix grows by at a time
CACHE_SIZE = 512
DEFAULT_COOLDOWN_S = 60.0  # OMOIDE_CHAT_SUMMARY_COOLDOWN: no LLM summary this long after a failure
TRANSCRIPT_LINE_TOKENS = 300  # one message's share of the summariser's input
TRANSCRIPT_TOKENS = 6000

_PROMPT = {
    Lang.JA: (
        "あなたは会話の要約係です。次の会話を{max_chars}文字以内の日本語で要約してください。"
        "事実・決まったこと・ユーザーの好みや予定・名前・日付を残し、挨拶や相づちは省きます。"
        "要約の文だけを出力してください。"
    ),
    Lang.EN: (
        "You summarise conversations. Summarise the conversation below in at most "
        "{max_chars} characters, in its language. Keep facts, decisions, the user's "
        "preferences and plans, names and dates; leave out greetings and small talk. "
        "Output only the summary."
    ),
}
_EARLIER = {
    Lang.JA: "これまでの要約:\n{summary}\n\n続きの会話:\n{transcript}",
    Lang.EN: "Summary so far:\n{summary}\n\nThe conversation continues:\n{transcript}",
}
_SPEAKER = {
    Lang.JA: {"user": "ユーザー", "assistant": "アシスタント", "tool": "ツール結果"},
    Lang.EN: {"user": "User", "assistant": "Assistant", "tool": "Tool result"},
}


@dataclass(frozen=True)
class Compressed:
    compaction: Compaction
    # "llm", "offline", "cached", "failed" (the call failed: stage-3 result sent), "cooldown"
    # (a call failed less than the cool-down ago: stage-3 result sent, no call) or None
    summary: str | None


class _CoolingDown(Exception):
    """The LLM summary is not asked for: a call failed less than the cool-down ago."""


class Compressor:
    def __init__(
        self,
        llm: LLM | None,
        *,
        cache_size: int = CACHE_SIZE,
        cooldown_s: float = DEFAULT_COOLDOWN_S,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        self.llm = llm
        self._cache: OrderedDict[str, str] = OrderedDict()
        self._cache_size = cache_size
        self._lock = threading.Lock()
        self._call_ended = threading.Condition(self._lock)  # notified when a summary call ends
        self._cooldown_s = cooldown_s
        self._monotonic = monotonic
        self._failed_at: float | None = None  # when the last summary call failed (monotonic)
        self.llm_calls = 0  # summaries asked of the LLM (read by tests and the benchmark)

    def compress(
        self,
        messages: Sequence[dict[str, Any]],
        cfg: PersonaSettings,
        *,
        tools: Any = None,
        names: tuple[str, str] = ("User", "Assistant"),
    ) -> Compressed:
        params = CompactParams(
            budget_tokens=cfg.chat_budget_tokens,
            keep_recent=cfg.keep_recent,
            fixed_tokens=tools_tokens(tools),
        )
        mechanical = compact_mechanical(messages, params)
        if mechanical.tokens_after <= params.budget_tokens:
            return Compressed(mechanical, None)
        split = summary_split(
            messages,
            cfg.keep_recent,
            step=SUMMARY_STEP,
            room_tokens=summary_room(messages, params, cfg.summary_max_chars),
        )
        use_llm = (
            self.llm is not None
            and cfg.context_use_llm_summary
            and split.old_turns + len(split.recent) >= MIN_TURNS_FOR_LLM
        )
        summary, how = "", "offline"
        if split.old and minimum_tokens(messages, params) >= params.budget_tokens:
            return self._no_room(split, cfg, params, mechanical)
        if split.old:
            try:
                summary, how = self._summary(split, cfg.summary_max_chars, use_llm, names)
            except _CoolingDown:
                return Compressed(mechanical, "cooldown")
            except OmoideError as exc:  # UpstreamUnavailable, LLMOutputError …
                logger.warning("chat summary failed, sending the stage-3 result: %s", exc.code)
                return Compressed(mechanical, "failed")
            except Exception:  # a fault of ours: the spec's fallback holds for it too
                logger.exception("chat summary failed, sending the stage-3 result")
                return Compressed(mechanical, "failed")
        result = apply_summary(
            split,
            summary,
            max_chars=cfg.summary_max_chars,
            params=params,
            tokens_before=mechanical.tokens_before,
        )
        if result.tokens_after > params.budget_tokens:  # the latest turn alone is over it
            _warn_over_budget(result.tokens_after, params.budget_tokens)
        return Compressed(result, how if split.old else None)

    def _no_room(
        self, split: Split, cfg: PersonaSettings, params: CompactParams, mechanical: Compaction
    ) -> Compressed:
        """Stage 4 without a summary, when the head (system prompt, memory section, tools) and
        the latest turn alone are over the budget.

        Why: no summary fits beside them (:func:`apply_summary` would leave it out), so asking
        the LLM for one only delayed the reply, by up to ``OMOIDE_LLM_TIMEOUT``. Outcome: the
        other turns are dropped as stage 4 drops them, the request stays over its budget, and
        the log says so (the upstream may refuse it as too long)."""
        result = apply_summary(
            split,
            "",
            max_chars=cfg.summary_max_chars,
            params=params,
            tokens_before=mechanical.tokens_before,
        )
        _warn_over_budget(result.tokens_after, params.budget_tokens)
        return Compressed(result, None)

    # -- the summary -----------------------------------------------------------------------

    def _summary(
        self, split: Split, max_chars: int, use_llm: bool, names: tuple[str, str]
    ) -> tuple[str, str]:
        mode = "llm" if use_llm else "offline"
        keys = _prefix_keys(split.old, mode, max_chars)
        cached = self._get(keys[-1][1])
        if cached is not None:
            return cached, "cached"
        if not use_llm:
            text = offline_summary(
                split.old, max_chars=max_chars, user=names[0], assistant=names[1]
            )
        else:
            earlier, rest = None, split.old
            for cut, key in reversed(keys[:-1]):  # the longest shorter prefix summarised
                if (earlier := self._get(key)) is not None:
                    rest = split.old[cut:]
                    break
            with self._lock:
                if self._cooling_down():
                    raise _CoolingDown
            return self._llm_summary(keys[-1][1], earlier, rest, max_chars), mode
        self._put(keys[-1][1], text)
        return text, mode

    def _llm_summary(
        self, key: str, earlier: str | None, messages: Sequence[dict[str, Any]], max_chars: int
    ) -> str:
        """The LLM's summary, asked in a thread of its own and cached under ``key``; the
        request waits for it unless another summary call fails meanwhile and starts the
        cool-down (``_CoolingDown``: it is sent as a new request would be)."""
        ended: dict[str, Any] = {}

        def call() -> None:
            try:
                text = self._ask_llm(earlier, messages, max_chars)
            except BaseException as exc:  # handed to the waiting request
                with self._lock:
                    if isinstance(exc, Exception):
                        self._failed_at = self._monotonic()
                    ended["error"] = exc
                    self._call_ended.notify_all()
                return
            self._put(key, text)
            with self._lock:
                self._failed_at = None
                ended["text"] = text
                self._call_ended.notify_all()

        context = contextvars.copy_context()
        threading.Thread(target=context.run, args=(call,), name="chat-summary", daemon=True).start()
        with self._lock:
            while not ended:
                if self._cooling_down():
                    raise _CoolingDown
                self._call_ended.wait()
        if "error" in ended:
            raise ended["error"]
        return str(ended["text"])

    def _ask_llm(
        self, earlier: str | None, messages: Sequence[dict[str, Any]], max_chars: int
    ) -> str:
        assert self.llm is not None
        sample = " ".join(message_text(m) for m in messages[:20])
        lang = detect_lang(sample) if sample.strip() else Lang.JA
        transcript = _transcript(messages, lang)
        if earlier:
            transcript = _EARLIER[lang].format(summary=earlier, transcript=transcript)
        self.llm_calls += 1
        text = self.llm.complete(
            [Message("user", transcript)],
            system=_PROMPT[lang].format(max_chars=max_chars),
            max_tokens=max(64, max_chars * 2),
            temperature=0.0,
        )
        text = " ".join(text.split())
        if not text:
            raise OmoideError("the summary was empty")
        return text[:max_chars]

    def _cooling_down(self) -> bool:
        """Whether a summary call failed less than the cool-down ago (the lock held)."""
        failed_at = self._failed_at
        return failed_at is not None and self._monotonic() - failed_at < self._cooldown_s

    def _get(self, key: str) -> str | None:
        with self._lock:
            if key in self._cache:
                self._cache.move_to_end(key)
                return self._cache[key]
        return None

    def _put(self, key: str, text: str) -> None:
        with self._lock:
            self._cache[key] = text
            self._cache.move_to_end(key)
            while len(self._cache) > self._cache_size:
                self._cache.popitem(last=False)


def _prefix_keys(
    messages: Sequence[dict[str, Any]], mode: str, max_chars: int
) -> list[tuple[int, str]]:
    """(cut, cache key) of each prefix ending before a user message, then of the whole; one
    chained hash, so every prefix costs one pass over the messages."""
    digest = hashlib.sha256(f"{mode}:{max_chars}".encode())
    keys = []
    for i, message in enumerate(messages):
        if i and message.get("role") == "user":
            keys.append((i, digest.copy().hexdigest()))
        digest.update(
            json.dumps(message, ensure_ascii=False, sort_keys=True, default=str).encode("utf-8")
            + b"\x1e"
        )
    keys.append((len(messages), digest.hexdigest()))
    return keys


def _transcript(messages: Sequence[dict[str, Any]], lang: Lang) -> str:
    """``Speaker: text`` lines; tool calls shown by name; the oldest lines go first when long."""
    names = _SPEAKER[lang]
    lines = []
    for m in messages:
        role = str(m.get("role"))
        text = " ".join(message_text(m).split())
        calls = [
            str((c.get("function") or {}).get("name", ""))
            for c in m.get("tool_calls") or ()
            if isinstance(c, dict)
        ]
        if calls:
            text = (text + " " if text else "") + f"[tool call: {', '.join(calls)}]"
        if text:
            lines.append(
                f"{names.get(role, role)}: {truncate_to_tokens(text, TRANSCRIPT_LINE_TOKENS)}"
            )
    total = sum(estimate_tokens(line) for line in lines)
    while len(lines) > 1 and total > TRANSCRIPT_TOKENS:
        total -= estimate_tokens(lines.pop(0))
    return "\n".join(lines)


def _warn_over_budget(tokens: int, budget: int) -> None:
    """The log's word that a request leaves over its budget (the upstream may refuse it)."""
    logger.warning(
        "chat request over its budget after compaction: the system prompt and the latest "
        "turn alone need %d tokens, chat_budget_tokens is %d; no summary was made",
        tokens,
        budget,
    )
