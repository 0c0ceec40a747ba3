"""Compaction of large chats: the same result as before it was made fast (fingerprints of the
compacted requests of generated conversations, taken before), and each long text counted once
rather than at every step (a 1 MB body took ~5 s)."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import random
from typing import Any

import pytest

from omoide.config import PersonaSettings
from omoide.engine import compact_tokens, tokens
from omoide.service.chat_summary import Compressor

Message = dict[str, Any]
_PHRASE = (
    "the cat sat on a mat and I went to Osaka last spring with my sister Mika who works as a "
    "nurse there; tomorrow we plan a trip to Hokkaido in March! 猫が好きです。明日は雨。"
)
WORDS = _PHRASE.split()


def conversation(seed: int, size: int) -> list[Message]:
    """A chat of about ``size`` characters: short and long turns, pasted logs with blank-line
    runs and trailing spaces, tool calls with large results, an image part, Japanese."""
    rnd = random.Random(seed)
    out: list[Message] = [{"role": "system", "content": "You are Rin."}]
    total = i = 0
    while total < size:
        text = " ".join(rnd.choice(WORDS) for _ in range(rnd.choice((5, 20, 80, 300, 1200))))
        if rnd.random() < 0.1:
            text = "\n\n\n".join([text, "log line " * rnd.randint(50, 400), text[:100] + "   "])
        if rnd.random() < 0.05:
            part = {"type": "image_url", "image_url": {"url": "data:image/png;base64,AAAA"}}
            out.append({"role": "user", "content": [{"type": "text", "text": text}, part]})
        else:
            out.append({"role": "user", "content": text})
        if rnd.random() < 0.2:
            call = {"id": f"c{i}", "type": "function"}
            call["function"] = {"name": "lookup", "arguments": '{"q": "x"}'}
            out.append({"role": "assistant", "content": None, "tool_calls": [call]})
            out.append({"role": "tool", "tool_call_id": f"c{i}", "content": "row " * 900})
        reply = " ".join(rnd.choice(WORDS) for _ in range(rnd.choice((10, 60, 200))))
        out.append({"role": "assistant", "content": reply})
        total += sum(len(json.dumps(m)) for m in out[-3:])
        i += 1
    return out


def one_long_message(size: int) -> list[Message]:
    return [
        {"role": "system", "content": "You are Rin."},
        {"role": "user", "content": "x " * (size // 2)},
        {"role": "assistant", "content": "ok"},
        {"role": "user", "content": "and now?"},
    ]


CASES = {
    "mixed-a": (lambda: conversation(1, 300_000), {}),
    "mixed-b": (lambda: conversation(2, 200_000), {"chat_budget_tokens": 2000, "keep_recent": 2}),
    "mixed-c": (lambda: conversation(3, 100_000), {"chat_budget_tokens": 30_000}),  # stage 0
    "mixed-c1": (lambda: conversation(3, 100_000), {"chat_budget_tokens": 20_000}),
    "mixed-e": (lambda: conversation(5, 120_000), {"chat_budget_tokens": 9000, "keep_recent": 3}),
    "mixed-d": (lambda: conversation(4, 60_000), {"summary_max_chars": 80, "keep_recent": 0}),
    "one-long": (lambda: one_long_message(300_000), {}),
}
# sha256 of each case's compacted request, stage, counts and summary kind (taken before the
# speed-up, with the same code otherwise)
FINGERPRINTS = {
    "mixed-a": "574fe60b5895fa7a94d0a7a180b5f2b382c1f7f81ea388a2dc1ac8b93187b259",
    "mixed-b": "9e6c25095791b90e65c5523e4683e31689c74abef7d03fff9aefc6818a5ec3cc",
    "mixed-c": "c94d190007a4ce9073d1c6bf01d0dcfdfebeb7f082dfcdfc89e37cb122cf8690",
    "mixed-c1": "62ee0aecbdd165eaabdc913e3f7d5268f537e7bb71baac077893d4a23087ada6",
    "mixed-e": "0d88f662aada22891611e2d48ea0b988b1c00f9d546611b6a88b6ec4d29c33d8",
    "mixed-d": "fefed72a6080ef6d1820cdbb2be0d6509a235eb47eee6c366cc9954ab0b2198e",
    "one-long": "51cf301db359516efc146bbb32b6bda8d4930f11840d8cf39fd76b037a997852",
}


def compressed(name: str) -> str:
    make, settings = CASES[name]
    cfg = dataclasses.replace(PersonaSettings(), **settings)
    result = Compressor(None).compress(make(), cfg)
    c = result.compaction
    data = [list(c.messages), c.stage, c.tokens_before, c.tokens_after, result.summary]
    return hashlib.sha256(json.dumps(data, ensure_ascii=False).encode()).hexdigest()


@pytest.mark.parametrize("name", sorted(CASES))
def test_compaction_gives_the_same_request_as_before_it_was_made_fast(name: str) -> None:
    assert compressed(name) == FINGERPRINTS[name]


@pytest.mark.parametrize("name", ["mixed-a", "one-long"])
def test_each_long_text_is_counted_once(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Texts over a few thousand characters were counted again at every step that read them
    (a 450,000-token message eleven times), and cut by counting them whole first."""
    seen: dict[str, int] = {}
    real = tokens.estimate_tokens

    def counting(text: str) -> int:
        if len(text) > 4000:  # longer than the short texts' memo holds
            seen[text] = seen.get(text, 0) + 1
        return real(text)

    monkeypatch.setattr(tokens, "estimate_tokens", counting)
    monkeypatch.setattr(compact_tokens, "estimate_tokens", counting)
    monkeypatch.setattr(compact_tokens, "_long_counts", compact_tokens._TextMemo(256, 0))  # empty
    compressed(name)
    assert seen and max(seen.values()) == 1, sorted((n, len(t)) for t, n in seen.items())
