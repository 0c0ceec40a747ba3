"""Keyword search over SQLite FTS5: an index declared and written as ``fts.FtsIndex`` says
(``{name}_fts``, ``unicode61`` with porter stemming, and ``{name}_fts_tri``, ``trigram``),
searched with FTS5's BM25. A query is split by script (``omoide.engine.lang``) into terms that
each go where they can be answered:

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
is restricted to one persona and the index's filter, with bound parameters; user text reaches
MATCH only through :func:`quote_fts`. Nothing here commits: the caller owns the transaction.

How a query is restricted to one persona depends on the index:

- by default, by a JOIN on the base table (persona column and ``filter_sql``), row by row;
- a *persona-keyed* index (``persona_keyed``; the notes' index) stores each row under the FTS
  rowid ``persona_id << 32 | base rowid``, so a persona's rows are one rowid range that FTS5
  walks itself (it seeks in each term's row list): no join, and BM25 is evaluated only for the
  persona's rows. Term statistics (row count, document frequencies, average length) stay those
  of the whole table, so scores are the same as with the join. Such an index holds only rows
  that pass ``filter_sql`` (``fts.py``), so a search does not check it again.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass

from omoide.engine.lang import char_ngrams, query_terms
from omoide.model import KeywordHit
from omoide.store.sqlite.fts import KEY_SPAN, FtsIndex
from omoide.store.sqlite.fts_terms import K1, Term, add_scores, idf, prune, quote_fts

__all__ = ["Fts5Index"]


@dataclass(frozen=True)
class Fts5Index(FtsIndex):
    """An :class:`FtsIndex` searched in SQLite's FTS5 (see the module docstring)."""

    def search(
        self, conn: sqlite3.Connection, *, persona_id: int, query: str, limit: int
    ) -> list[KeywordHit]:
        """Rows of ``persona_id`` (passing ``filter_sql``) best matching ``query``, best first."""
        terms = query_terms(query)
        if terms.empty or limit <= 0:
            return []
        n_rows, fts_terms = self._statistics(
            conn,
            [
                *((self.words_table, e) for e in self.word_exprs(terms.words, terms.cjk)),
                *((self.trigram_table, e) for e in self.trigram_exprs(terms.cjk)),
            ],
        )
        if n_rows == 0:
            return []
        pool = max(limit * self.tuning.pool, self.tuning.min_pool)
        kept = prune(fts_terms, max_df=self.tuning.max_df * n_rows, budget=self.tuning.row_budget)
        totals: dict[int, float] = {}
        sides = [
            (table, [t for t in kept if t.table == table])
            for table in (self.words_table, self.trigram_table)
        ]
        add_scores(
            totals,
            self._fts_sides(conn, [(t, terms) for t, terms in sides if terms], persona_id, pool),
        )
        short_rows, short_idf = self._short_side(
            conn, self.instr_terms(terms.cjk), persona_id, n_rows
        )
        add_scores(totals, short_rows)
        total_idf = sum(t.idf for t in fts_terms) + sum(short_idf)
        scale = 1.0 / total_idf if self.tuning.normalise and total_idf > 0 else 1.0
        ranked = sorted(totals.items(), key=lambda item: (-item[1], item[0]))
        return [KeywordHit(rowid, score * scale) for rowid, score in ranked[:limit]]

    def held_by(
        self,
        conn: sqlite3.Connection,
        *,
        persona_id: int,
        words: Sequence[str],
        share: float,
        least: int,
    ) -> frozenset[str]:
        """The ``words`` (Latin query words, as ``query_terms`` gives them) that at least
        ``share`` of the persona's indexed rows hold, and at least ``least`` rows, in one
        statement: the persona's row count gives the bar, and each word's count stops there."""
        if not words or share <= 0.0:
            return frozenset()
        bar = (
            "(SELECT max(?, CAST(? * n AS INTEGER) + (? * n > CAST(? * n AS INTEGER))) "
            f"FROM (SELECT count(*) AS n FROM {self.base_table} AS b "
            f"WHERE {self._where_base()}))"
        )
        bar_params: list[object] = [least, share, share, share, persona_id]
        if self.keyed(conn):
            low = persona_id << 32
            rows = (
                f"SELECT 1 FROM {self.words_table} WHERE {self.words_table} MATCH ? "
                "AND rowid BETWEEN ? AND ?"
            )
            row_params: list[object] = [low, low + KEY_SPAN - 1]
        else:
            rows = (
                f"SELECT 1 FROM {self.words_table} JOIN {self.base_table} AS b "
                f"ON b.rowid = {self.words_table}.rowid "
                f"WHERE {self.words_table} MATCH ? AND {self._where_base()}"
            )
            row_params = [persona_id]
        counts = ", ".join(
            f"(SELECT count(*) FROM ({rows} LIMIT (SELECT need FROM bar)))" for _ in words
        )
        params: list[object] = [*bar_params]
        for word in words:
            params += [quote_fts(word), *row_params]
        row = conn.execute(
            f"WITH bar AS (SELECT {bar} AS need) SELECT (SELECT need FROM bar), {counts}", params
        ).fetchone()
        return frozenset(w for w, n in zip(words, row[1:], strict=True) if n >= row[0])

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

    def _statistics(
        self, conn: sqlite3.Connection, exprs: Sequence[tuple[str, str]]
    ) -> tuple[int, list[Term]]:
        """The index's row count and each ``(table, expr)`` term's document frequency, in one
        statement (each statement the keyword thread runs waits for the GIL when it returns).

        The row count is FTS5's own (its BM25 uses the same N); the docsize shadow table
        answers count(*) without a scan, unlike the FTS table itself."""
        unique = list(dict.fromkeys(exprs))
        counts = "".join(
            f", (SELECT count(*) FROM {table} WHERE {table} MATCH ?)" for table, _ in unique
        )
        row = conn.execute(
            f"SELECT (SELECT count(*) FROM {self.trigram_table}_docsize){counts}",
            [expr for _, expr in unique],
        ).fetchone()
        n_rows = row[0]
        return n_rows, [
            Term(table, expr, df, idf(n_rows, df))
            for (table, expr), df in zip(unique, row[1:], strict=True)
        ]

    def _where_base(self, placeholder: str = "?") -> str:
        extra = f" AND ({self.filter_sql})" if self.filter_sql else ""
        return f"b.{self.persona_col} = {placeholder}{extra}"

    def _fts_sides(
        self,
        conn: sqlite3.Connection,
        sides: Sequence[tuple[str, Sequence[Term]]],
        persona_id: int,
        pool: int,
    ) -> list[tuple[int, float]]:
        """Each table's best ``pool`` rows of the persona for the OR of its kept terms, by BM25,
        the tables' rows one after the other, in one statement.

        FTS5 evaluates BM25 row by row (~2 µs a row here: it reads each row's length), so a
        term held by thousands of the persona's rows costs milliseconds. Only the persona's
        newest ``scored_cap`` rows holding any of the terms (or ``pool``, if more) are scored.
        When there are several terms and their rows could exceed the cap, the rows holding
        *all* of them that are older than those are scored too (again the newest
        ``scored_cap``), since they are the rows the query describes best. A row's score
        does not depend on which read found it (FTS5's BM25 takes its idf and average length
        from the whole table), and a persona with fewer matching rows than the cap is scored
        in full, as before.

        Through the join on the base table, or on a persona-keyed index by the persona's rowid
        range alone: the same rows with the same scores, since FTS5 visits rows in rowid order
        either way (the join applies the persona before the cap)."""
        cap = max(self.tuning.scored_cap, pool)
        parts: list[str] = []
        params: list[object] = []
        for table, terms in sides:
            any_term = " OR ".join(t.expr for t in terms)
            sql, args = self._newest(conn, table, any_term, persona_id, cap, scored=True)
            parts.append(sql)
            params += [*args, pool]
            if len(terms) > 1 and sum(t.df for t in terms) > cap:  # else all rows were read
                oldest, oldest_args = self._newest(
                    conn, table, any_term, persona_id, cap, scored=False
                )
                sql, args = self._newest(
                    conn,
                    table,
                    " AND ".join(t.expr for t in terms),
                    persona_id,
                    cap,
                    scored=True,
                    below=(f"(SELECT min(id) FROM ({oldest}))", oldest_args),
                )
                parts.append(sql)
                params += [*args, pool]
        if not parts:
            return []
        sql = " UNION ALL ".join(
            f"SELECT * FROM (SELECT * FROM ({part}) ORDER BY score DESC, id LIMIT ?)"
            for part in parts
        )
        return conn.execute(sql, params).fetchall()

    def _newest(
        self,
        conn: sqlite3.Connection,
        table: str,
        match: str,
        persona_id: int,
        cap: int,
        *,
        scored: bool,
        below: tuple[str, list[object]] | None = None,
    ) -> tuple[str, list[object]]:
        """SQL (and its parameters) for the persona's newest ``cap`` rows of ``table`` matching
        ``match`` as ``id`` (the base rowid), with ``score`` (-BM25) if ``scored``, and only
        rows below the base rowid given by SQL ``below`` if given."""
        if self.keyed(conn):
            low = persona_id << 32
            score = f", -bm25({table}) AS score" if scored else ""
            bound, bound_args = (
                (f"? + {below[0]} - 1", [low, *below[1]]) if below else ("?", [low + KEY_SPAN - 1])
            )
            return (
                f"SELECT rowid - ? AS id{score} FROM {table} WHERE {table} MATCH ? "
                f"AND rowid BETWEEN ? AND {bound} ORDER BY rowid DESC LIMIT ?",
                [low, match, low, *bound_args, cap],
            )
        score = f", -bm25({table}) AS score" if scored else ""
        older = f" AND {table}.rowid < {below[0]}" if below else ""
        return (
            f"SELECT {table}.rowid AS id{score} FROM {table} "
            f"JOIN {self.base_table} AS b ON b.rowid = {table}.rowid "
            f"WHERE {table} MATCH ? AND {self._where_base()}{older} "
            f"ORDER BY {table}.rowid DESC LIMIT ?",
            [match, persona_id, *(below[1] if below else []), cap],
        )

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
        weights = [idf(n_rows, sum(1 for row in hits if row[1 + t] > 0)) for t in range(len(terms))]
        scored = []
        for rowid, *tfs in hits:
            score = sum(w * tf * (K1 + 1) / (tf + K1) for w, tf in zip(weights, tfs, strict=True))
            scored.append((rowid, score))
        return scored, weights
