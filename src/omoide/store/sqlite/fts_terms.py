"""What keyword search on either adapter shares with SQLite's FTS5 index: the tuning, the one
way user text enters a MATCH expression and the indexed body of a text, and the BM25 pieces
(FTS5's constants and idf, the terms worth a MATCH, a side's scores summed per row). The
PostgreSQL adapter scores its twin tables with the same pieces (``store/postgres/fts.py``)."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from omoide.engine.lang import Script, char_ngrams, fold_latin, normalise, script_runs

__all__ = [
    "DEFAULT_TUNING",
    "K1",
    "B",
    "FtsTuning",
    "Term",
    "add_scores",
    "idf",
    "prune",
    "quote_fts",
    "words_body",
]

# FTS5's own BM25 constants, reused for the short-term side so its scores add up with the rest.
K1 = 1.2
B = 0.75


@dataclass(frozen=True)
class FtsTuning:
    """Choices measured by ``bench/search_study.py``; the defaults are the study's pick."""

    word_tokenizer: str = "porter unicode61 remove_diacritics 2"
    word_prefix: bool = False  # "walk" also matching "walking" — porter already covers most
    trigram_mode: str = "grams"  # "grams": OR of a term's trigrams; "phrase": the term exactly
    short_path: str = "bigram"  # 1–2 character CJK terms: "bigram" tokens, "instr" scan, "none"
    max_df: float = 0.5  # terms in more than this share of rows are left out of MATCH
    row_budget: int = 5000  # rarest terms first, MATCH only terms whose row lists fit in this
    normalise: bool = True  # score = matched BM25 / the query's total idf ("coverage")
    pool: int = 4  # each FTS side returns up to pool × limit rows before the sides are summed
    min_pool: int = 50
    # Rows of the persona scored per FTS side, newest first (the side's pool if larger); see
    # Fts5Index._fts_sides. SQLite only: PostgreSQL caps its flat scores at its own _SCORED_CAP.
    scored_cap: int = 1000


DEFAULT_TUNING = FtsTuning()


def quote_fts(term: str) -> str:
    """The one way user text enters an FTS5 MATCH expression: as a single string token.

    Inside double quotes FTS5 reads no operators (AND, OR, NOT, NEAR), no column filters, no
    ``*``/``^`` and no parentheses; an embedded double quote is escaped by doubling it. NUL and
    lone surrogates, which SQLite cannot take, are dropped.
    """
    cleaned = normalise(term)
    return '"' + cleaned.replace('"', '""') + '"'


@dataclass(frozen=True)
class Term:
    table: str
    expr: str  # one quoted MATCH term
    df: int  # rows of the whole FTS table that match it
    idf: float


def idf(n_rows: int, df: int) -> float:
    """FTS5's idf, with its floor: a term in over half the rows is worth (almost) nothing."""
    return max(math.log((n_rows - df + 0.5) / (df + 0.5)), 1e-6)


def prune(terms: Sequence[Term], *, max_df: float, budget: int) -> list[Term]:
    """The terms worth a MATCH, rarest first.

    Scoring a term costs one BM25 evaluation per row it occurs in, so the cost of a search is
    the summed row lists of its terms. Terms that match nothing are skipped; a term in more than
    ``max_df`` rows is skipped (FTS5's idf floor makes it worth almost nothing); then terms are
    taken while their row lists fit in ``budget``. The rarest term is always taken: a query of
    common words still finds something. Skipped terms keep their place in the coverage
    denominator, since they are part of what was asked.
    """
    present = sorted((t for t in terms if t.df > 0), key=lambda t: t.df)
    kept: list[Term] = []
    rows = 0
    for term in present:
        if kept and (term.df > max_df or rows + term.df > budget):
            break
        kept.append(term)
        rows += term.df
    return kept


def add_scores(totals: dict[int, float], rows: Iterable[tuple[int, float]]) -> None:
    """Add each row's score of one side to the row's total."""
    for rowid, score in rows:
        totals[rowid] = totals.get(rowid, 0.0) + score


def words_body(text: str) -> str:
    """What the unicode61 table indexes: Latin words split from Japanese (``spaced_for_words``)
    plus every CJK run as character bigrams and its last character, so that a 1–2 character
    term is an indexed token (bigram) or token prefix (single character). Latin letters lose
    their diacritics (:func:`~omoide.engine.lang.fold_latin`), as query words do: PostgreSQL's
    ``tsvector`` of this body does not fold them itself, SQLite's tokenizer does."""
    parts = []
    for run in script_runs(text):
        if run.script == Script.LATIN:
            parts.append(fold_latin(run.text))
        else:
            parts.extend(char_ngrams(run.text, 2))
            if len(run.text) > 1:
                parts.append(run.text[-1])
    return " ".join(parts)
