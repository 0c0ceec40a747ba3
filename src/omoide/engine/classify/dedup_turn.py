"""Dedup's turn rule: an attempt that fell short, an alternative dropped, a purpose said as a
result (pure).

Trigger: dedup asks whether a near-copy is a duplicate. Why: three ways a near-copy keeps
every value (the place, the date, the thing) and still says another fact, at a cosine of
0.97-0.99 with a small aligned difference:

- **an attempt that fell short**: one text says the attempt was turned back, given up or
  missed (引き返した, 断念した, 途中で, "turned back", "fell short of", "failed to") and the
  other does not (槍ヶ岳に登り、山頂の手前で引き返した / 山頂まで行った);
- **an alternative dropped**: the two texts differ only by one alternative ("か夕方", "or
  Tuesdays") that one side adds to a value the other holds alone (朝か夕方だけ / 朝だけ:
  two times allowed against one);
- **a purpose said as a result** (Japanese): one text does a verb as its purpose (免許を取る
  ために通っている) and the other has the same verb done (免許を取った), with no purpose:
  one is on the way, the other arrived.

Outcome: ``turn_changed`` is True for any of the three; like the status and polarity rules, a
pair it finds is never a duplicate. The cues are general words of failure and of purpose; a
paraphrase says the same attempt, alternative or purpose on both sides. Deterministic and
symmetric.
"""

from __future__ import annotations

import re
from difflib import SequenceMatcher

from omoide.engine.classify.dedup_judge import notation_tokens
from omoide.engine.lang import is_japanese

__all__ = ["turn_changed"]

# An attempt that fell short: turned back, given up on, stopped before the end, not reached.
_SHORT = {
    "en": re.compile(
        r"\bturn(?:ed|s|ing)? (?:back|around|round)\b|\bfell short\b"
        r"|\bfail(?:ed|s)? to\b|\bgave up on\b|\bgiving up on\b"
        r"|\b(?:didn't|did not|couldn't|could not) (?:make it|finish|reach|complete)\b"
        r"|\bshort of (?:the )?(?:summit|top|finish|end)\b",
        re.IGNORECASE,
    ),
    "ja": re.compile(
        r"引き返|断念|諦め|あきらめ|届かなかった|たどり着けなかった|辿り着けなかった"
        r"|手前で|途中で(?:棄権|リタイア|やめ|止め)|棄権|リタイア|登頂できなかった"
        r"|完走できなかった"
    ),
}
# An alternative: "or" and a word, か and a content character (朝か夕方, 月曜か火曜).
_ALTERNATIVE = {
    "en": re.compile(r"^or \S"),
    "ja": re.compile(r"^か[\u4e00-\u9fff\u30a1-\u30fa\u30fcA-Za-z0-9]"),
}
# A purpose: a verb's dictionary form before ために / ため (取るために, 行くため).
_PURPOSE = re.compile(r"([\u4e00-\u9fff]+)([うくぐすつぬぶむる])ため")
# The same verb done: its stem, then a past ending (取った, 行った, 読んだ, 見た, した).
_PAST_AFTER_STEM = re.compile(
    r"[いきぎしちにびみりえけげせてねべめれ]?"
    r"(?:った|いた|いだ|んだ|した|た)"
)


def _lang(first: str, second: str) -> str:
    return "ja" if is_japanese(first) or is_japanese(second) else "en"


def _fell_short(first: str, second: str, lang: str) -> bool:
    cue = _SHORT[lang]
    return bool(cue.search(first)) != bool(cue.search(second))


def _alternative_dropped(first: str, second: str, lang: str) -> bool:
    x, y, sep = notation_tokens(first, second)
    changes = [
        op for op in SequenceMatcher(None, x, y, autojunk=False).get_opcodes() if op[0] != "equal"
    ]
    if len(changes) != 1:
        return False
    tag, i1, i2, j1, j2 = changes[0]
    if tag == "delete":
        run = sep.join(x[i1:i2])
    elif tag == "insert":
        run = sep.join(y[j1:j2])
    else:
        return False
    return bool(_ALTERNATIVE[lang].match(run))


def _purpose_done(purpose: str, other: str) -> bool:
    if "ため" in other:
        return False
    for match in _PURPOSE.finditer(purpose):
        stem = match.group(1)
        for found in re.finditer(re.escape(stem), other):
            if _PAST_AFTER_STEM.match(other, found.end()):
                return True
    return False


def turn_changed(first: str, second: str) -> bool:
    """True when one text says an attempt fell short and the other does not, the two differ
    only by one alternative added, or (Japanese) one does as a purpose what the other says
    was done (module docstring)."""
    lang = _lang(first, second)
    if _fell_short(first, second, lang) or _alternative_dropped(first, second, lang):
        return True
    return lang == "ja" and (_purpose_done(first, second) or _purpose_done(second, first))
