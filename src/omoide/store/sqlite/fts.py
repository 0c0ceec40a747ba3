"""Keyword search over SQLite FTS5: every piece of FTS SQL in Omoide lives here.

Each indexed table gets two FTS5 tables keyed by the base table's INTEGER PRIMARY KEY:
``{name}_fts`` (``unicode61`` with porter stemming) and ``{name}_fts_tri`` (``trigram``), because
Japanese has no spaces. A query is split by script (``omoide.engine.lang``) into terms that each
go where they can be answered:

- Latin words minus stopwords → ``{name}_fts``. Its text has a space at every script change, so
  "AIの勉強" still yields the word "ai";
- CJK terms of 3+ characters → their character trigrams, OR'ed, in ``{name}_fts_tri`` (a long
  compound that only partly overlaps still scores);
- CJK terms of 1–2 characters, which trigrams cannot match (and SQLite 3.40's trigram
  ``LIKE '%大阪%'`` returns nothing; never LIKE on the FTS table): by default as tokens of
  ``{name}_fts``, whose text also holds every CJK run as character bigrams plus its last
  character (大阪 is a token, 猫 a token prefix); ``short_path="instr"`` instead scans the persona's
  rows with ``instr()`` on the base table, which costs a full scan per query (measured in
  ``bench/results/embedder_comparison.md``).

All parts are BM25 over the same rows, so they are summed per row, then divided by the query's
total idf: a hit's score is its *coverage*, the share of the query's weight it matched, which
means the same in every query (``engine.fusion``'s ``convex`` method relies on it). Every query
is restricted to one persona and the index's filter by a JOIN on the base table, with bound
parameters; user text reaches MATCH only through :func:`quote_fts`. Nothing here commits: the
caller owns the transaction.
"""

from __future__ import annotations

import math
import re
import sqlite3
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from omoide.engine.lang import Script, char_ngrams, normalise, query_terms, script_runs
from omoide.model import KeywordHit

__all__ = ["DEFAULT_TUNING", "FtsIndex", "FtsTuning", "KeywordHit", "quote_fts"]

_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")

# FTS5's own BM25 constants, reused for the short-term side so its scores add up with the rest.
_K1 = 1.2
_B = 0.75


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
class FtsIndex:
    name: str
    base_table: str
    content_col: str
    persona_col: str
    # Trusted SQL from code, never user input: a condition on the base table, whose columns may
    # be written bare or as ``b.column`` ("status = 'active'").
    filter_sql: str = ""
    tuning: FtsTuning = field(default=DEFAULT_TUNING)

    def __post_init__(self) -> None:
        for value in (self.name, self.base_table, self.content_col, self.persona_col):
            if not _IDENTIFIER.fullmatch(value):
                raise ValueError(f"not a plain SQL identifier: {value!r}")

    @property
    def words_table(self) -> str:
        return f"{self.name}_fts"

    @property
    def trigram_table(self) -> str:
        return f"{self.name}_fts_tri"

    def ddl(self) -> list[str]:
        return [
            f"CREATE VIRTUAL TABLE IF NOT EXISTS {self.words_table} USING fts5("
            f"body, tokenize = '{self.tuning.word_tokenizer}')",
            f"CREATE VIRTUAL TABLE IF NOT EXISTS {self.trigram_table} USING fts5("
            "body, tokenize = 'trigram')",
        ]

    # -- writes -------------------------------------------------------------------------------

    def index(self, conn: sqlite3.Connection, rows: Iterable[tuple[int, str]]) -> None:
        """Insert or replace ``(rowid, text)`` rows in both FTS tables."""
        prepared = [(rowid, normalise(text)) for rowid, text in rows]
        if not prepared:
            return
        self.unindex(conn, [rowid for rowid, _ in prepared])
        conn.executemany(
            f"INSERT INTO {self.words_table}(rowid, body) VALUES (?, ?)",
            [(rowid, words_body(text)) for rowid, text in prepared],
        )
        conn.executemany(f"INSERT INTO {self.trigram_table}(rowid, body) VALUES (?, ?)", prepared)

    def unindex(self, conn: sqlite3.Connection, ids: Iterable[int]) -> None:
        params = [(rowid,) for rowid in ids]
        for table in (self.words_table, self.trigram_table):
            conn.executemany(f"DELETE FROM {table} WHERE rowid = ?", params)

    def optimize(self, conn: sqlite3.Connection) -> None:
        """Merge every segment of both FTS tables into one (FTS5 ``optimize``).

        A delete in FTS5 only adds a tombstone; the deleted row's tokens stay in the older
        segments until they are merged. Erasing (``Database.erasing``) runs this so that the
        tokens of erased text are dropped too. It rewrites the whole index: keep it for erasure.
        """
        for table in (self.words_table, self.trigram_table):
            conn.execute(f"INSERT INTO {table}({table}) VALUES ('optimize')")

    # -- search -------------------------------------------------------------------------------

    def search(
        self, conn: sqlite3.Connection, *, persona_id: int, query: str, limit: int
    ) -> list[KeywordHit]:
        """Rows of ``persona_id`` (passing ``filter_sql``) best matching ``query``, best first."""
        terms = query_terms(query)
        n_rows = self._row_count(conn)
        if terms.empty or limit <= 0 or n_rows == 0:
            return []
        pool = max(limit * self.tuning.pool, self.tuning.min_pool)
        fts_terms = [
            *self._stats(conn, self.words_table, self.word_exprs(terms.words, terms.cjk), n_rows),
            *self._stats(conn, self.trigram_table, self.trigram_exprs(terms.cjk), n_rows),
        ]
        kept = _prune(fts_terms, max_df=self.tuning.max_df * n_rows, budget=self.tuning.row_budget)
        totals: dict[int, float] = {}
        for table in (self.words_table, self.trigram_table):
            match = " OR ".join(t.expr for t in kept if t.table == table)
            _add(totals, self._fts_side(conn, table, match, persona_id, pool))
        short_rows, short_idf = self._short_side(
            conn, self.instr_terms(terms.cjk), persona_id, n_rows
        )
        _add(totals, short_rows)
        total_idf = sum(t.idf for t in fts_terms) + sum(short_idf)
        scale = 1.0 / total_idf if self.tuning.normalise and total_idf > 0 else 1.0
        ranked = sorted(totals.items(), key=lambda item: (-item[1], item[0]))
        return [KeywordHit(rowid, score * scale) for rowid, score in ranked[:limit]]

    def word_exprs(self, words: Sequence[str], cjk: Sequence[str]) -> list[str]:
        """MATCH terms for the unicode61 table: Latin words, and with the bigram short path the
        1–2 character CJK terms (a 1-character term as a prefix of the bigram tokens)."""
        suffix = " *" if self.tuning.word_prefix else ""
        exprs = [quote_fts(word) + suffix for word in words]
        if self.tuning.short_path == "bigram":
            exprs += [quote_fts(t) + (" *" if len(t) == 1 else "") for t in cjk if len(t) < 3]
        return exprs

    def trigram_exprs(self, cjk: Sequence[str]) -> list[str]:
        long_terms = [term for term in cjk if len(term) >= 3]
        if self.tuning.trigram_mode == "phrase":
            parts = long_terms
        else:
            parts = list(dict.fromkeys(g for term in long_terms for g in char_ngrams(term, 3)))
        return [quote_fts(part) for part in parts]

    def instr_terms(self, cjk: Sequence[str]) -> list[str]:
        return [t for t in cjk if len(t) < 3] if self.tuning.short_path == "instr" else []

    def _row_count(self, conn: sqlite3.Connection) -> int:
        # FTS5's own document count (its BM25 uses the same N); the docsize shadow table
        # answers count(*) without a scan, unlike the FTS table itself.
        return conn.execute(f"SELECT count(*) FROM {self.trigram_table}_docsize").fetchone()[0]

    def _stats(
        self, conn: sqlite3.Connection, table: str, exprs: Sequence[str], n_rows: int
    ) -> list[_Term]:
        out = []
        for expr in dict.fromkeys(exprs):
            df = conn.execute(
                f"SELECT count(*) FROM {table} WHERE {table} MATCH ?", (expr,)
            ).fetchone()[0]
            out.append(_Term(table, expr, df, _idf(n_rows, df)))
        return out

    def _where_base(self, placeholder: str = "?") -> str:
        extra = f" AND ({self.filter_sql})" if self.filter_sql else ""
        return f"b.{self.persona_col} = {placeholder}{extra}"

    def _fts_side(
        self, conn: sqlite3.Connection, table: str, match: str, persona_id: int, pool: int
    ) -> list[tuple[int, float]]:
        if not match:
            return []
        sql = (
            f"SELECT {table}.rowid, -bm25({table}) AS score FROM {table} "
            f"JOIN {self.base_table} AS b ON b.rowid = {table}.rowid "
            f"WHERE {table} MATCH ? AND {self._where_base()} "
            "ORDER BY score DESC LIMIT ?"
        )
        return conn.execute(sql, (match, persona_id, pool)).fetchall()

    def _short_side(
        self, conn: sqlite3.Connection, terms: Sequence[str], persona_id: int, n_rows: int
    ) -> tuple[list[tuple[int, float]], list[float]]:
        """BM25 for 1–2 character terms from one ``instr()`` scan of the persona's rows.

        Term counts come from ``replace()``; document frequency is counted in the persona (the
        scan sees nothing else) and length normalisation is left out (b = 0), which saves a
        second scan for the average length. The base table holds the text as written, not
        NFKC-normalised, so full-width variants of a term are missed on this path.
        """
        if not terms:
            return [], []
        col = f"b.{self.content_col}"
        params = range(1, len(terms) + 1)
        counts = ", ".join(
            f"(length({col}) - length(replace({col}, ?{i}, ''))) / length(?{i})" for i in params
        )
        any_hit = " OR ".join(f"instr({col}, ?{i}) > 0" for i in params)
        hits = conn.execute(
            f"SELECT b.rowid, {counts} FROM {self.base_table} AS b "
            f"WHERE {self._where_base(f'?{len(terms) + 1}')} AND ({any_hit})",
            (*terms, persona_id),
        ).fetchall()
        idf = [_idf(n_rows, sum(1 for row in hits if row[1 + t] > 0)) for t in range(len(terms))]
        scored = []
        for rowid, *tfs in hits:
            score = sum(w * tf * (_K1 + 1) / (tf + _K1) for w, tf in zip(idf, tfs, strict=True))
            scored.append((rowid, score))
        return scored, idf


@dataclass(frozen=True)
class _Term:
    table: str
    expr: str  # one quoted MATCH term
    df: int  # rows of the whole FTS table that match it
    idf: float


def _idf(n_rows: int, df: int) -> float:
    """FTS5's idf, with its floor: a term in over half the rows is worth (almost) nothing."""
    return max(math.log((n_rows - df + 0.5) / (df + 0.5)), 1e-6)


def _prune(terms: Sequence[_Term], *, max_df: float, budget: int) -> list[_Term]:
    """The terms worth a MATCH, rarest first.

    Scoring a term costs one BM25 evaluation per row it occurs in, so the cost of a search is
    the summed row lists of its terms. Terms that match nothing are skipped; a term in more than
    ``max_df`` rows is skipped (FTS5's idf floor makes it worth almost nothing); then terms are
    taken while their row lists fit in ``budget``. The rarest term is always taken: a query of
    common words still finds something. Skipped terms keep their place in the coverage
    denominator, since they are part of what was asked.
    """
    present = sorted((t for t in terms if t.df > 0), key=lambda t: t.df)
    kept: list[_Term] = []
    rows = 0
    for term in present:
        if kept and (term.df > max_df or rows + term.df > budget):
            break
        kept.append(term)
        rows += term.df
    return kept


def _add(totals: dict[int, float], rows: Iterable[tuple[int, float]]) -> None:
    for rowid, score in rows:
        totals[rowid] = totals.get(rowid, 0.0) + score


def words_body(text: str) -> str:
    """What the unicode61 table indexes: Latin words split from Japanese (``spaced_for_words``)
    plus every CJK run as character bigrams and its last character, so that a 1–2 character
    term is an indexed token (bigram) or token prefix (single character)."""
    parts = []
    for run in script_runs(text):
        if run.script == Script.LATIN:
            parts.append(run.text)
        else:
            parts.extend(char_ngrams(run.text, 2))
            if len(run.text) > 1:
                parts.append(run.text[-1])
    return " ".join(parts)
