"""Every labelled pair read as a consolidated note, measured once, for ``bench/note_learned.py``.

Per pair: whether the note rules close it (``engine.classify.note_closes``, what the server
closes a note on today), and a row per sentence of the new memory (``statements``) read alone
against the old memory, as the judge's sentence reading does (``learned.judge_note``): the
judge's named features (text signals and cosines), whether a veto or a sure signal is set, and
the bundled judge's CONTRADICTORY score for that sentence (``sentence_score``). Each sentence
is read twice: as written ("raw") and with the note form normalised ("norm": the trailing
bracketed date of a note dropped from both memories, ``note_form``), since a note's date reads
to the text signals as a changed number and to the cosines as a changed part.

Measured rows are kept in a ``.npz`` (``--measured``) so a rerun with other settings does not
read or embed again.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from _classify_common import CachedEmbedder, load_pairs
from lib.reports import REPO
from omoide.embed import make_embedder
from omoide.engine.classify import (
    EMBEDDING_FEATURES,
    NOTE_NEAREST_GUARDS,
    SURE_ONLY,
    TEXT_FEATURES,
    VETO_ONLY,
    Judge,
    note_closes,
    pair_vector,
    read_pair,
    sentence_score,
    statements,
    sure_close,
    vetoed,
)
from omoide.service.classify_judge import embed_all, load_judge_models, measure

DATA = REPO / "bench" / "data"
# The notes folds: each written by one writer, as Omoide's consolidator writes notes.
NOTE_FOLDS: dict[str, Path] = {f"notes{n}": DATA / f"classify_notes{n}.jsonl" for n in range(1, 15)}
# Statement sets read as notes: the extra precision check (every pair not CONTRADICTORY that is
# closed counts as false). Seen sets only.
STATEMENT_SETS: dict[str, Path] = {
    "pairs": DATA / "classify_pairs.jsonl",
    **{f"holdout{n}": DATA / f"classify_holdout{'' if n == 1 else n}.jsonl" for n in range(1, 34)},
}
# The named features a note model may weigh: the judge's text signals but the veto-only and
# close-only ones (they decide, they are not weighed), and the cosines.
MODEL_FEATURES: tuple[str, ...] = (
    tuple(f for f in TEXT_FEATURES if f not in VETO_ONLY + SURE_ONLY + NOTE_NEAREST_GUARDS)
    + EMBEDDING_FEATURES
)
READINGS = ("raw", "norm")
_DATE_SUFFIX = re.compile(
    r"\s*(?:\([^()]*\d[^()]*\)|（[^（）]*[\d〇一二三四五六七八九十][^（）]*）)\s*$"
)


def note_form(text: str) -> str:
    """A memory without the trailing bracketed date a consolidated note carries
    ("… (1 February 2026)", 「…（2026年2月22日）」); other text as it is."""
    return _DATE_SUFFIX.sub("", text).strip() or text


@dataclass(frozen=True)
class Measured:
    """Pairs (``pair_*``) and their sentence rows (``x_*``, ``parent``) for one reading each."""

    pair_source: np.ndarray
    pair_lang: np.ndarray
    pair_label: np.ndarray  # 1 for CONTRADICTORY
    pair_id: np.ndarray
    pair_rule: np.ndarray  # 1 when the note rules close the pair
    parent: np.ndarray  # the pair of each sentence row
    x: dict[str, np.ndarray]  # reading -> (rows, MODEL_FEATURES)
    veto: dict[str, np.ndarray]
    sure: dict[str, np.ndarray]
    judge: dict[str, np.ndarray]  # the bundled judge's sentence score


def _judge_model(model_id: str) -> Judge:
    """The bundled judge of the e5 embedder (every server's)."""
    return load_judge_models()[model_id]


def measure_all(sources: dict[str, Path], cache: Path | None) -> Measured:
    embedder = make_embedder("e5")
    model = _judge_model(embedder.model_id)
    if cache is not None:
        embedder = CachedEmbedder(embedder, cache)
    read = embed_all(embedder)
    p_src, p_lang, p_label, p_id, p_rule, parent = [], [], [], [], [], []
    sent: list[tuple[str, str, str]] = []  # (old, sentence, lang)
    for name, path in sources.items():
        for pair in load_pairs(path):
            i = len(p_src)
            p_src.append(name)
            p_lang.append(pair.lang)
            p_label.append(int(pair.label == "CONTRADICTORY"))
            p_id.append(pair.id)
            p_rule.append(int(note_closes(pair.old, pair.new, pair.lang) is not None))
            for part in statements(pair.new, pair.lang):
                sent.append((pair.old, part, pair.lang))
                parent.append(i)
    names = TEXT_FEATURES + EMBEDDING_FEATURES
    cols = [names.index(f) for f in MODEL_FEATURES]
    x, veto, sure, judged = {}, {}, {}, {}
    for reading in READINGS:
        form = (lambda t: t) if reading == "raw" else note_form
        pairs = [(form(o), form(s), lang) for o, s, lang in sent]
        texts = [read_pair(o, s, lang=lang) for o, s, lang in pairs]
        sims = measure(read, [(o, s, t) for (o, s, _), t in zip(pairs, texts, strict=True)])
        rows, v, u, j = [], [], [], []
        for t, s in zip(texts, sims, strict=True):
            rows.append(pair_vector(t, s, names)[cols])
            v.append(vetoed(t))
            u.append(sure_close(t))
            j.append(sentence_score(t, s, model))
        x[reading], veto[reading] = np.array(rows), np.array(v, dtype=bool)
        sure[reading], judged[reading] = np.array(u, dtype=bool), np.array(j)
    return Measured(
        np.array(p_src),
        np.array(p_lang),
        np.array(p_label),
        np.array(p_id),
        np.array(p_rule),
        np.array(parent),
        x,
        veto,
        sure,
        judged,
    )


def save(m: Measured, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    arrays = {
        "pair_source": m.pair_source,
        "pair_lang": m.pair_lang,
        "pair_label": m.pair_label,
        "pair_id": m.pair_id,
        "pair_rule": m.pair_rule,
        "parent": m.parent,
    }
    for r in READINGS:
        arrays.update(
            {
                f"x_{r}": m.x[r],
                f"veto_{r}": m.veto[r],
                f"sure_{r}": m.sure[r],
                f"judge_{r}": m.judge[r],
            }
        )
    np.savez(path, **arrays)


def load(path: Path) -> Measured:
    with np.load(path, allow_pickle=False) as d:
        return Measured(
            d["pair_source"],
            d["pair_lang"],
            d["pair_label"],
            d["pair_id"],
            d["pair_rule"],
            d["parent"],
            {r: d[f"x_{r}"] for r in READINGS},
            {r: d[f"veto_{r}"] for r in READINGS},
            {r: d[f"sure_{r}"] for r in READINGS},
            {r: d[f"judge_{r}"] for r in READINGS},
        )
