"""Which current memories a new memory is classified against (write path step 4; pure).

The evolution job ranks the persona's current memories by raw cosine with the new one (best
first) and judges only those from the classification band's lower edge up, at most a fixed
number of them (settings ``classify_band_low`` through the embedder's calibration, and
``classify_max_candidates``). When no memory reaches the band, the nearest one from a lower
edge up (``classify_nearest_low``) is judged, and closed only on a verdict of
``classify_nearest_confidence`` (:func:`nearest_under_band`). The service
(``service.evolution``) and the end-to-end benchmark (``bench/classify_store.py``) both choose
the candidates through :func:`judged_candidates` and read what the verdicts do to them (extend,
close, in which order) through :func:`verdict_effects`, so the benchmark measures what the
server does.

Only the nearest candidate is closed, and only when the judge finds it contradicted; a farther
one judged contradicted never is (:func:`close_order`, :func:`closable`; "rank 1 or nothing",
past the same fact said before). Measured in a store of every old memory of a labelled
set, closing any candidate judged CONTRADICTORY also closed unrelated memories of the same
domain when the new memory told of a strong change (26 of every 100 new Japanese memories, 4 of
every 100 English ones; `bench/results/classify_store.md`); the nearest alone cut those closes
about fourteen-fold for 2–4 points of recall. Nothing closes when the nearest contradicted one
does not stand clear of another contradicted candidate (:data:`CLOSE_LEAD`), and a close that
passes over the same fact said before needs a sure verdict (:func:`stands_clear`;
`bench/results/classify_close34.md`).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from omoide.engine.classify import Relation
from omoide.engine.lang import Lang, detect_lang, normalise

__all__ = [
    "CLOSE_LEAD",
    "VerdictEffects",
    "closable",
    "close_lead",
    "close_order",
    "judged_candidates",
    "nearest_under_band",
    "said_again",
    "select_candidates",
    "stands_clear",
    "under_band_keeps",
    "verdict_effects",
]

T = TypeVar("T")
K = TypeVar("K")

# The raw cosine by which the nearest contradicted candidate must lead every other candidate
# judged CONTRADICTORY for a close (:func:`stands_clear`), by the new memory's language: when two
# sit closer than this the new memory does not tell which fact it changes. Chosen per language
# leave-one-source-out on the older seen sets, e5 (`bench/results/classify_close34.md`): e5 puts
# a Japanese memory's same-domain neighbours within a hair of each other (0.93-0.98), where
# 0.004 stopped 13 false closes for 4 true ones; in English no lead stopped more false closes
# than true ones. On another embedder's wider raw scale the same number asks less.
CLOSE_LEAD: dict[Lang, float] = {Lang.EN: 0.0, Lang.JA: 0.004}


def select_candidates(
    ranked: Sequence[tuple[T, float]], band: float, cap: int
) -> list[tuple[T, float]]:
    """The first ``cap`` of ``ranked`` (items with their raw cosine, best first) whose cosine
    is at least ``band``: a memory ranked below the cap is never judged, however close.

    >>> select_candidates([("a", 0.95), ("b", 0.9), ("c", 0.8)], band=0.85, cap=5)
    [('a', 0.95), ('b', 0.9)]
    >>> select_candidates([("a", 0.95), ("b", 0.9), ("c", 0.8)], band=0.0, cap=1)
    [('a', 0.95)]
    """
    return [(item, score) for item, score in ranked if score >= band][: max(cap, 0)]


def nearest_under_band(
    ranked: Sequence[tuple[T, float]], band: float, floor: float
) -> list[tuple[T, float]]:
    """The nearest of ``ranked`` (best first) when nothing reaches the band and it reaches
    ``floor`` (setting ``classify_nearest_low``), else nothing. A new memory told in other words
    than the one it changes ("Mia's allergy test came back clear and she bakes with almonds"
    against "Mia avoids nuts") can sit under the band with no memory above it; its
    nearest is judged too, and closed only on a sure verdict (:func:`under_band_keeps`; the
    lower the cosine, the less likely the memory is the one the new one is about, so the surer
    the verdict must be). Measured in a store of every old memory of a labelled set (English; a
    Japanese pair's cosine sits above the band): 12 more true closes over 13 seen sets and one
    false, another person's purchase read as the user's thing changing
    (``bench/results/classify_e2e31.md``).

    >>> nearest_under_band([("a", 0.85), ("b", 0.84)], band=0.86, floor=0.84)
    [('a', 0.85)]
    >>> nearest_under_band([("a", 0.87), ("b", 0.85)], band=0.86, floor=0.84)
    []
    >>> nearest_under_band([("a", 0.83)], band=0.86, floor=0.84)
    []
    """
    if not ranked or ranked[0][1] >= band or ranked[0][1] < floor:
        return []
    return [ranked[0]]


def judged_candidates(
    ranked: Sequence[tuple[T, float]], band: float, floor: float, cap: int
) -> tuple[list[tuple[T, float]], bool]:
    """The memories a new one is judged against, and whether they are the nearest under the
    band: :func:`select_candidates`, or when none reaches the band :func:`nearest_under_band`
    (then True: only a sure close counts, :func:`under_band_keeps`). The evolution job and the
    benchmarks that replay it choose through this.

    >>> judged_candidates([("a", 0.90), ("b", 0.85)], band=0.86, floor=0.84, cap=5)
    ([('a', 0.9)], False)
    >>> judged_candidates([("a", 0.85)], band=0.86, floor=0.84, cap=5)
    ([('a', 0.85)], True)
    """
    chosen = select_candidates(ranked, band, cap)
    if chosen:
        return chosen, False
    under = nearest_under_band(ranked, band, floor)
    return under, bool(under)


def under_band_keeps(contradictory: bool, confidence: float, sure: float) -> bool:
    """Whether a verdict on the nearest memory under the band counts: only a CONTRADICTORY of
    confidence ``sure`` or more (setting ``classify_nearest_confidence``; nothing is extended
    from under the band; in the band the judge's own threshold decides).

    >>> under_band_keeps(True, 0.98, sure=0.97), under_band_keeps(True, 0.9, sure=0.97)
    (True, False)
    """
    return contradictory and confidence >= sure


@dataclass(frozen=True)
class VerdictEffects(Generic[K]):
    """What a new memory's verdicts do to its judged candidates (:func:`verdict_effects`), each
    list nearest first."""

    extended: list[K]  # judged EXTENDABLE (never from under the band)
    contradicted: list[K]  # judged CONTRADICTORY (from under the band: a sure verdict only)
    order: list[K]  # the candidates a close may fall on (:func:`close_order`)

    @property
    def closes(self) -> list[K]:
        """The memory closed: the first of ``order`` when contradicted (:func:`closable`)."""
        return closable(self.order, self.contradicted)


def verdict_effects(
    candidates: Sequence[tuple[K, float]],
    verdicts: Mapping[K, tuple[Relation, float]],
    *,
    under_band: bool,
    sure: float,
    same_fact: float,
    repeated: Collection[K] = (),
    lead: float = 0.0,
) -> VerdictEffects[K]:
    """The effects of ``verdicts`` (relation and confidence by key) on ``candidates`` (the
    judged ones with their raw cosine, nearest first, as :func:`judged_candidates` gives them;
    ``under_band`` its flag): which are extended, which contradicted, and the order a close
    follows (:func:`close_order` past the same fact said before: ``same_fact``, the raw
    duplicate threshold, and ``repeated``). Under the band a verdict counts only by
    :func:`under_band_keeps` at ``sure``; the close needs the nearest contradicted one to stand
    clear (:func:`stands_clear`, ``lead`` of raw cosine: :func:`close_lead` of the new memory).
    The evolution job and the benchmark that replays it both read verdicts through this.

    >>> E, C = Relation.EXTENDABLE, Relation.CONTRADICTORY
    >>> effects = verdict_effects([("home", 0.91), ("gym", 0.88)],
    ...                           {"home": (C, 0.8), "gym": (E, 0.7)},
    ...                           under_band=False, sure=0.97, same_fact=0.95)
    >>> effects.extended, effects.closes
    (['gym'], ['home'])
    >>> verdict_effects([("home", 0.8)], {"home": (C, 0.8)}, under_band=True, sure=0.97,
    ...                 same_fact=0.95).closes
    []
    """

    def kept(key: K, relation: Relation) -> bool:
        if key not in verdicts or verdicts[key][0] is not relation:
            return False
        return not under_band or under_band_keeps(
            relation is Relation.CONTRADICTORY, verdicts[key][1], sure
        )

    extended = [key for key, _ in candidates if kept(key, Relation.EXTENDABLE)]
    contradicted = [key for key, _ in candidates if kept(key, Relation.CONTRADICTORY)]
    order = close_order(candidates, set(contradicted), same_fact=same_fact, repeated=repeated)
    confidence = {key: verdicts[key][1] for key in contradicted}
    if not stands_clear(candidates, order, confidence, sure=sure, repeated=repeated, lead=lead):
        order = []
    return VerdictEffects(extended, contradicted, order)


def close_lead(new: str) -> float:
    """:data:`CLOSE_LEAD` for a new memory's text, by its language (:func:`detect_lang`).

    >>> close_lead("ユーザーは釧路に引っ越した。"), close_lead("Ken moved to Kushiro.")
    (0.004, 0.0)
    """
    return CLOSE_LEAD[detect_lang(new)]


def stands_clear(
    candidates: Sequence[tuple[K, float]],
    order: Sequence[K],
    contradicted: Mapping[K, float],
    *,
    sure: float,
    repeated: Collection[K] = (),
    lead: float = 0.0,
) -> bool:
    """Whether the nearest of ``order`` (:func:`close_order`), when ``contradicted`` (key to the
    verdict's confidence), is the one memory the new one changes: it leads every other
    contradicted candidate by ``lead`` of raw cosine, and when the order passed over a nearer
    candidate as the same fact said before (not one said word for word, ``repeated``) its
    verdict is sure (``sure``, setting ``classify_nearest_confidence``). A new memory that reads
    as contradicting two memories at about the same distance ("stopped going to the quit-smoking
    group" against "plans to quit this year" and "goes to the group every Saturday"), or that
    extends its nearest memory and contradicts another of the domain further down, mostly
    closed a memory it is not about (older seen sets, Japanese: 16 such closes against 5 true
    ones lost; `bench/results/classify_close34.md`).

    >>> rivals = [("a", 0.93), ("b", 0.928)]
    >>> stands_clear(rivals, ["a", "b"], {"a": 0.9, "b": 0.9}, sure=0.97, lead=0.004)
    False
    >>> clear = [("a", 0.93), ("b", 0.92)]
    >>> stands_clear(clear, ["a", "b"], {"a": 0.9, "b": 0.9}, sure=0.97, lead=0.004)
    True
    >>> stands_clear([("note", 0.97), ("a", 0.93)], ["a"], {"a": 0.9}, sure=0.97)
    False
    """
    if not order or order[0] not in contradicted:
        return True
    first = order[0]
    cosine = dict(candidates)
    keys = list(cosine)
    passed = keys[: keys.index(first)]
    if any(key not in repeated for key in passed) and contradicted[first] < sure:
        return False
    rivals = [cosine[key] for key in order[1:] if key in contradicted]
    return not rivals or cosine[first] - max(rivals) >= lead


def closable(candidates: Sequence[K], contradicted: Collection[K]) -> list[K]:
    """Which of ``candidates`` (judged, nearest first) a new memory closes: the nearest one,
    when the judge found it contradicted; never one further down. A new memory tells of one
    change, and the memory it changes is its nearest: a farther memory judged contradicted is
    far more often another fact of the same kind ("moved to Sendai" against a memory about a
    gym) than a second fact the same words undo.

    >>> closable(["home", "gym"], {"home", "gym"})
    ['home']
    >>> closable(["home", "gym"], {"gym"})
    []
    """
    return [candidates[0]] if candidates and candidates[0] in contradicted else []


def close_order(
    ranked: Sequence[tuple[K, float]],
    contradicted: Collection[K],
    *,
    same_fact: float,
    repeated: Collection[K] = (),
) -> list[K]:
    """The judged candidates (with their raw cosine, nearest first) a close may fall on, in
    order: all but the same fact said before, which is not what the new memory changes — those
    at or above ``same_fact`` (the raw duplicate threshold) that the judge did not find
    contradicted (a note of the conversation, then the user saving it in other words), and
    those in ``repeated``, which hold the new memory word for word (:func:`said_again`: a
    dated note said again without its date, whatever the judge read).

    >>> close_order([("note", 0.97), ("home", 0.91), ("gym", 0.88)], {"home"}, same_fact=0.95)
    ['home', 'gym']
    >>> close_order([("note", 0.94), ("home", 0.91)], {"note", "home"}, same_fact=0.95,
    ...             repeated={"note"})
    ['home']
    """
    return [
        key
        for key, score in ranked
        if key not in repeated and (score < same_fact or key in contradicted)
    ]


def said_again(old: str, new: str) -> bool:
    """Whether ``old`` holds ``new`` word for word, case, width, spacing and punctuation aside:
    the new memory says nothing the old one does not ("Mei's flat is in Nara." inside the note
    "Mei's flat is in Nara. (3 May 2026)"). Word for word, so a turned value or an added
    negation ("… is not in Nara") is never read as said again.

    >>> said_again("Mei's flat is in Nara. (3 May 2026)", "Mei’s flat is in Nara")
    True
    >>> said_again("Mei's flat is in Nara.", "Mei's flat is not in Nara.")
    False
    """
    bare_new = _bare(new)
    return bool(bare_new) and bare_new in _bare(old)


def _bare(text: str) -> str:
    """Letters and digits only, in the language layer's normal form, case-folded."""
    return "".join(ch for ch in normalise(text).casefold() if ch.isalnum())
