"""What one persona's notes hold word by word, as the keyword index answers it: the keyword
search, and which query words are common among the notes (``common_words``, asked by every
e5 note search, its answers kept per revision of the persona)."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING

from omoide.store.sqlite.fts import FtsIndex, KeywordHit
from omoide.store.sqlite.indexes import MEMORY_FTS

if TYPE_CHECKING:
    from omoide.store.sqlite.db import Database

__all__ = ["CommonWordAnswers", "MemoryWords"]

# The most query words one persona's common-word cache keeps; past it a new word is asked of
# the database each time until the revision moves and the cache starts again.
_COMMON_WORDS_KEPT = 4096


class CommonWordAnswers:
    """:meth:`MemoryWords.common_words`' answers per word, valid for one (revision, share,
    least)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.at: tuple[int, float, int] | None = None
        self.words: dict[str, bool] = {}


class MemoryWords:
    """The keyword index's questions about one persona's notes (a part of ``MemoryStore``)."""

    db: Database
    persona_id: int
    _common: CommonWordAnswers
    _word_index: FtsIndex = MEMORY_FTS  # the notes' keyword index (PostgreSQL: its twin)

    if TYPE_CHECKING:

        def _revision(self, conn: sqlite3.Connection) -> int: ...

    def keyword_search(self, query: str, *, limit: int) -> list[KeywordHit]:
        return MEMORY_FTS.search(
            self.db.conn(), persona_id=self.persona_id, query=query, limit=limit
        )

    def common_words(self, words: Sequence[str], *, share: float, least: int) -> frozenset[str]:
        """The ``words`` (Latin query words, as ``query_terms`` gives them) that at least
        ``share`` of the persona's active notes hold, and at least ``least`` notes (one
        statement, each count stopping at the bar).

        Every e5 note search asks this, so each word's answer is kept for the persona's
        revision: every write that adds, re-words, tombstones or erases a note (an import's
        too, and another process's) moves the revision, which empties the cache. Closing a
        fact keeps it active and indexed, so it changes no count. A statement runs only for
        words not yet known at this revision."""
        if not words or share <= 0.0:
            return frozenset()
        at = (self._revision(self.db.conn()), share, least)
        common = self._common
        with common.lock:
            if common.at != at:
                common.at, common.words = at, {}
            known = {w: common.words[w] for w in words if w in common.words}
        missing = [w for w in dict.fromkeys(words) if w not in known]
        if missing:
            held = self._word_index.held_by(
                self.db.conn(), persona_id=self.persona_id, words=missing, share=share, least=least
            )
            fresh = {w: w in held for w in missing}
            known.update(fresh)
            with common.lock:  # kept under the revision asked at, if still current
                if common.at == at and len(common.words) < _COMMON_WORDS_KEPT:
                    common.words.update(fresh)
        return frozenset(w for w in words if known[w])

    def forget_common_words(self) -> None:
        """Empty :meth:`common_words`' answers, so its next call asks the database for every
        word (what each search paid before the cache; ``bench/common_words_latency.py`` times
        both). Never needed for a right answer: a write that changes a count moves the
        revision, which empties them."""
        with self._common.lock:
            self._common.at, self._common.words = None, {}
