"""3-op classification by an LLM: one call judges a new memory against all its candidates.

Implements the engine's :class:`~omoide.engine.classify.Classifier` port. The prompt (Japanese
for Japanese memories, English otherwise) defines INDEPENDENT / EXTENDABLE / CONTRADICTORY and
asks for strict JSON; the answer must name every candidate exactly once with a valid class, and
says how sure the model is in one of three words (:data:`CONFIDENCE_LEVELS`, read by
:func:`_confidence`; an unreadable one is no failure, the verdict carries
:data:`LLM_CONFIDENCE`). Any failure — the endpoint down, a malformed answer — logs one
WARNING and hands the whole call to the offline ``fallback``, so classification never stops
working. Memory text is never logged.
"""

from __future__ import annotations

import logging
import re
from typing import Any

from omoide.engine.classify import Candidate, Classifier, PassageVectors, Relation, Verdict
from omoide.engine.counts import plural
from omoide.engine.lang import Lang, detect_lang
from omoide.errors import UpstreamUnavailable
from omoide.llm.base import LLM, LLMOutputError, Message, complete_json

__all__ = ["LLMClassifier"]

logger = logging.getLogger(__name__)

# The model's own word for how sure it is, on the offline classifier's 0..1 scale. Three named
# levels rather than a number: models write numbers from a few round habits (0.8, 0.9, 0.95)
# that differ by model and by phrasing, so a bar such as classify_nearest_confidence (0.97)
# would be crossed by a model's habit, not its reading; a closed set of words is answered as
# reliably as the class itself and the numbers behind it are chosen here, in one place.
# "certain" clears the default under-band bar (a sure close of the nearest memory under the
# band); "likely" is the value every LLM verdict carried before; "unsure" clears no bar.
CONFIDENCE_LEVELS = {"certain": 0.98, "likely": 0.8, "unsure": 0.5}
# A verdict whose confidence is missing or unreadable: the middle level.
LLM_CONFIDENCE = CONFIDENCE_LEVELS["likely"]
REASON_LIMIT = 200
_CLASS_LIKE = re.compile(r"[A-Z_]{1,30}")

SYSTEM_EN = """\
You keep the long-term memory of an AI persona. A NEW memory is about to be saved. For each \
EXISTING memory listed, decide what the new memory means for it, using exactly one class:

INDEPENDENT: both stay true and the new memory adds no detail to the existing one. This \
includes memories sharing many words but about different people or things (the user's brother \
vs the user's cousin, the persona vs the user), a past fact next to a present one when both \
hold (a first car and the current car), and a second preference next to a first.

EXTENDABLE: the new memory adds detail to the existing one without contradicting it: a name, \
place, date, reason or amount that fits it ("more than 20", then "27"), or a narrower case of a \
broader statement that only looks like a change ("likes music", then "lately especially into \
bossa nova").

CONTRADICTORY: the new memory means the existing one is no longer true: a move, a new job, role \
or status, quitting something, a reversed preference, a cancelled or postponed plan, a changed \
number (age, count, price, frequency), or wording such as "used to" or "no longer". The change \
may only be implied, with no negation word at all.

A memory judged CONTRADICTORY is closed, and closing a memory that is still true is the worst \
mistake: choose CONTRADICTORY only when both memories cannot be true at the same time now.

For each verdict also say how sure you are, in one word: "certain" when the two memories allow \
no other reading, "likely" when this reading is the better one but another is possible, \
"unsure" when it is close to a guess.

Reply with one JSON object and nothing else:
{"verdicts": [{"candidate": 0, "class": "INDEPENDENT", "confidence": "likely", \
"reason": "one short sentence"}]}
One entry per existing memory; "candidate" is its number."""

SYSTEM_JA = """\
あなたはAIペルソナの長期記憶を管理しています。新しい記憶（NEW）をこれから保存します。\
一覧の既存の記憶（EXISTING）それぞれについて、新しい記憶がその記憶にとって何を意味するかを、\
次の3分類のどれか1つで判定してください。

INDEPENDENT（独立）: 両方とも真のままで、新しい記憶は既存の記憶に詳細を加えない。\
言葉が多く重なっていても別の人や物についての記述（ユーザーの兄といとこ、ペルソナとユーザー）、\
過去の事実と現在の事実が両方成り立つもの（最初の車と今の車）、\
ある好みとは別のもう一つの好みもこれに当たる。

EXTENDABLE（拡張）: 新しい記憶が既存の記憶と矛盾せずに詳細を加える。\
既存の記憶と整合する名前・場所・日付・理由・数量（「20以上」のあとに「27」）や、\
変化のように見えても広い記述の中の具体的な一例\
（「音楽が好き」のあとに「最近は特にボサノバにはまっている」）。

CONTRADICTORY（矛盾）: 新しい記憶によって既存の記憶がもう真ではなくなる。\
引っ越し、転職や役職・立場の変化、何かをやめたこと、好みの逆転、予定の中止や延期、\
数値の変化（年齢・回数・価格・頻度）、「以前は」「もう〜ない」「〜になった」のような表現。\
否定語がなく、変化がほのめかされているだけの場合も含む。

CONTRADICTORY と判定された記憶は無効になります。まだ真である記憶を無効にするのが最も重い誤りです。\
両方の記憶が今同時に成り立ち得ないときだけ CONTRADICTORY を選んでください。

各判定にはどれだけ確かかも1語で添えてください: 2つの記憶がほかの読み方を許さないときは \
"certain"、この読み方のほうが妥当だが別の読み方もあり得るときは "likely"、\
ほとんど推測のときは "unsure"。

次の形の JSON オブジェクトを1つだけ返し、ほかには何も書かないでください:
{"verdicts": [{"candidate": 0, "class": "INDEPENDENT", "confidence": "likely", \
"reason": "短い一文"}]}
既存の記憶1件につきちょうど1項目。"candidate" はその番号、"class" は英語の分類名、\
"confidence" は英語の1語、"reason" は日本語で書いてください。"""

_HEADINGS = {
    "en": ("NEW memory:", "EXISTING memories:"),
    "ja": ("新しい記憶（NEW）:", "既存の記憶（EXISTING）:"),
}


class LLMClassifier:
    """The LLM engine for the 3-op classification, falling back to an offline one."""

    def __init__(self, llm: LLM, *, fallback: Classifier, lang: str = "auto") -> None:
        self._llm = llm
        self._fallback = fallback
        self._lang = lang

    def classify(
        self,
        new: str,
        candidates: list[Candidate],
        *,
        lang: str = "auto",
        note: bool = False,
        known: PassageVectors | None = None,
    ) -> list[Verdict]:
        """The LLM reads a consolidated ``note`` as any memory; its offline fallback is told
        (and handed the caller's ``known`` vectors)."""
        if not candidates:
            return []
        prompt_lang = self._prompt_lang(new, lang)
        try:
            answer = complete_json(
                self._llm,
                [Message("user", _prompt(new, candidates, prompt_lang))],
                system=SYSTEM_JA if prompt_lang == Lang.JA else SYSTEM_EN,
                max_tokens=min(4096, 200 + 120 * len(candidates)),
            )
            return _verdicts(answer, candidates, source=self._llm.name)
        except (LLMOutputError, UpstreamUnavailable) as exc:
            logger.warning("LLM classification failed, using the offline classifier: %s", exc)
            return self._fallback.classify(new, candidates, lang=lang, note=note, known=known)

    def _prompt_lang(self, new: str, lang: str) -> Lang:
        """The call's language, else the constructor's, else the new memory's script."""
        chosen = lang if lang != "auto" else self._lang
        if chosen == "auto":
            chosen = detect_lang(new)
        return Lang.JA if chosen == Lang.JA else Lang.EN


def _prompt(new: str, candidates: list[Candidate], lang: str) -> str:
    new_heading, old_heading = _HEADINGS[lang]
    listing = "\n".join(f"{i}: {_one_line(c.content)}" for i, c in enumerate(candidates))
    return f"{new_heading}\n{_one_line(new)}\n\n{old_heading}\n{listing}"


def _one_line(text: str) -> str:
    # A newline inside a memory would read as the start of the next numbered candidate.
    return " ".join(text.split())


def _verdicts(answer: Any, candidates: list[Candidate], *, source: str) -> list[Verdict]:
    """Validate the model's answer: every candidate judged exactly once, with a known class."""
    found: dict[int, Verdict] = {}
    for item in _items(answer):
        if not isinstance(item, dict):
            raise LLMOutputError("a verdict is not a JSON object")
        index = _index(item.get("candidate"), candidates)
        if index in found:
            raise LLMOutputError(f"candidate {index} was judged more than once")
        reason = " ".join(str(item.get("reason") or "").split())[:REASON_LIMIT]
        found[index] = Verdict(
            key=candidates[index].key,
            relation=_relation(item.get("class")),
            confidence=_confidence(item.get("confidence")),
            reason=f"{source}: {reason}" if reason else source,
        )
    missing = [i for i in range(len(candidates)) if i not in found]
    if missing:
        raise LLMOutputError(
            f"no verdict for {plural(len(missing), 'candidate')} {', '.join(map(str, missing))}"
        )
    return [found[i] for i in range(len(candidates))]


def _items(answer: Any) -> list[Any]:
    """The list of verdicts: ``{"verdicts": [...]}`` as asked, a bare list, or one verdict."""
    if isinstance(answer, list):
        return answer
    if isinstance(answer, dict):
        if isinstance(answer.get("verdicts"), list):
            return answer["verdicts"]
        lists = [v for v in answer.values() if isinstance(v, list)]
        if len(lists) == 1:
            return lists[0]
        if "candidate" in answer:
            return [answer]
    raise LLMOutputError("the answer holds no list of verdicts")


def _index(value: Any, candidates: list[Candidate]) -> int:
    """A candidate named by its number (as asked) or, failing that, by its key."""
    if isinstance(value, str):
        keys = [c.key for c in candidates]
        if value in keys:
            return keys.index(value)
        stripped = value.strip().strip("[]#").strip()
        value = int(stripped) if stripped.isdigit() else value
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < len(candidates):
        return value
    # Named by number or type only: a stray string may quote a memory, and this gets logged.
    shown = value if isinstance(value, int) else type(value).__name__
    raise LLMOutputError(f"unknown candidate ({shown})")


def _confidence(value: Any) -> float:
    """The verdict's confidence: a level's number (:data:`CONFIDENCE_LEVELS`, case and spacing
    aside), or a number from 0 to 1 as given (some models answer one whatever they are asked;
    a numeric string too). Anything else — missing, another word, out of range, not finite, a
    boolean — is :data:`LLM_CONFIDENCE`: a verdict is never refused for its confidence.

    >>> _confidence("Certain"), _confidence(0.9), _confidence("0.3"), _confidence(None)
    (0.98, 0.9, 0.3, 0.8)
    >>> _confidence(95), _confidence("very"), _confidence(True), _confidence(float("nan"))
    (0.8, 0.8, 0.8, 0.8)
    """
    if isinstance(value, str):
        word = value.strip().lower()
        if word in CONFIDENCE_LEVELS:
            return CONFIDENCE_LEVELS[word]
        try:
            value = float(word)
        except ValueError:
            return LLM_CONFIDENCE
    if isinstance(value, bool) or not isinstance(value, int | float):
        return LLM_CONFIDENCE
    number = float(value)
    return number if 0.0 <= number <= 1.0 else LLM_CONFIDENCE  # NaN fails both


def _relation(value: Any) -> Relation:
    name = str(value or "").strip().upper()
    try:
        return Relation(name)
    except ValueError:
        shown = name if _CLASS_LIKE.fullmatch(name) else "(not a class name)"
        raise LLMOutputError(f"unknown class {shown}") from None
