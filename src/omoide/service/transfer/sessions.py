"""An import's first pass over the sessions of an Omoide export file, so that no turn of the
file is lost and a refused file writes nothing.

Trigger / why / outcome:
- a turn whose ``seq`` or ``external_id`` another turn of its session already has in the file,
  a session described twice, a turn or episode outside its session's records, an episode
  naming turns the file does not hold → 422 naming the line (and the earlier one). The store
  holds one turn per seq and per external id: the second pass used to stop on it after the
  records before it were written (a half import, with the database's own error), or skip the
  second description of a session with its turns.
- a session whose ``segmented_upto_seq`` (the last turn cut into episodes) is negative, past
  its last turn, or before the last turn of one of its episodes → 422 naming the line. The
  restore queues segmentation for the turns after it: the episodes' turns were cut again into
  a second episode of the same turns (and a mark past the last turn left the turns that
  follow it never segmented). Two episodes of a session sharing turns (segmentation never
  writes them: a turn belongs to one episode) likewise.
- a session of the file that the persona already holds with other turns (another turn at a
  seq, or fewer or more turns between the file's first and last seq) → 409 before anything
  is written. The second pass skips a session that is already there (a re-run), so its turns
  in the file were dropped without a word; a re-import of the same file, or of one whose
  sessions went on after it was exported, still finds the same turns and skips them.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any

from omoide.engine.errors import named
from omoide.errors import Conflict, InvalidInput
from omoide.service.transfer.records import kept_external_id
from omoide.store.port import PersonaRestoreHandle

__all__ = ["SessionDigest", "SessionScan", "check_present_sessions", "turn_digest"]

_MOD = 1 << 128


def turn_digest(seq: int, speaker: str, role: str, content: str, external_id: str | None) -> int:
    """One turn as a number; a session's digest is the sum of its turns' (order-free). A blank
    id stored before the API refused it counts as none, as the file's is read (a re-run of an
    export holding one stays a re-run)."""
    external_id = kept_external_id(external_id)
    text = json.dumps([seq, speaker, role, content, external_id], ensure_ascii=False)
    return int.from_bytes(hashlib.blake2b(text.encode("utf-8"), digest_size=16).digest(), "big")


@dataclass
class SessionDigest:
    """A session's turns in the file: how many, their seq range and their digest."""

    line: int
    segmented_upto: int = 0  # the session's segmented_upto_seq
    turns: int = 0
    first_seq: int = 0
    last_seq: int = 0
    digest: int = 0

    def add(self, seq: int, value: int) -> None:
        self.first_seq = seq if not self.turns else min(self.first_seq, seq)
        self.last_seq = seq if not self.turns else max(self.last_seq, seq)
        self.turns += 1
        self.digest = (self.digest + value) % _MOD


@dataclass
class SessionScan:
    """Fed every session, event and episode record of the file in order (the first pass)."""

    sessions: dict[str, SessionDigest] = field(default_factory=dict)
    # a session's seqs when they have gaps (else its digest's first_seq-last_seq range), and
    # every episode's (session id, first seq): what a memory's provenance may name
    gaps: dict[str, frozenset[int]] = field(default_factory=dict)
    episode_starts: set[tuple[str, int]] = field(default_factory=set)
    _current: str | None = None
    _seqs: dict[int, int] = field(default_factory=dict)  # seq -> line
    _ids: dict[str, tuple[int, int]] = field(default_factory=dict)  # external id -> (line, seq)
    _episodes: list[tuple[int, int, int]] = field(default_factory=list)

    def session(self, record: dict[str, Any], number: int) -> None:
        self.finish()
        session_id = record["session_id"]
        if session_id in self.sessions:
            raise _refused(
                number,
                f"session {named(session_id)} is described a second time (first "
                f"at line {self.sessions[session_id].line}); a session is "
                "one record followed by its turns and episodes",
            )
        self.sessions[session_id] = SessionDigest(
            line=number, segmented_upto=record["segmented_upto_seq"]
        )
        self._current = session_id

    def event(self, record: dict[str, Any], number: int) -> None:
        self._inside(record, number, "turn")
        seq, external_id = record["seq"], record["external_id"]
        if seq in self._seqs:
            raise _refused(
                number,
                f"a second turn with seq {seq} in session "
                f"{named(self._current)} (the first is at line {self._seqs[seq]})",
            )
        if external_id is not None and external_id in self._ids:
            line, other = self._ids[external_id]
            raise _refused(
                number,
                f"turn seq {seq} of session {named(self._current)} reuses the "
                f"external_id {named(external_id)} of the turn at line {line} "
                f"(seq {other}); each turn of a session has its own "
                "external id, as the API requires",
            )
        self._seqs[seq] = number
        if external_id is not None:
            self._ids[external_id] = (number, seq)
        assert self._current is not None
        self.sessions[self._current].add(
            seq, turn_digest(seq, record["speaker"], record["role"], record["content"], external_id)
        )

    def episode(self, record: dict[str, Any], number: int) -> None:
        self._inside(record, number, "episode")
        self._episodes.append((number, record["first_seq"], record["last_seq"]))

    def has_turn(self, session_id: str, seq: int) -> bool:
        """The file holds turn ``seq`` of session ``session_id`` (after :meth:`finish`)."""
        want = self.sessions[session_id]
        if session_id in self.gaps:
            return seq in self.gaps[session_id]
        return bool(want.turns) and want.first_seq <= seq <= want.last_seq

    def finish(self) -> None:
        """The current session's records are all read: its episodes name its turns."""
        if self._current is not None:
            want = self.sessions[self._current]
            self._check_segmented(want)
            if want.turns != want.last_seq - want.first_seq + 1:
                self.gaps[self._current] = frozenset(self._seqs)
            self.episode_starts.update((self._current, first) for _, first, _ in self._episodes)
        for number, first, last in self._episodes:
            missing = next((s for s in (first, last) if s not in self._seqs), None)
            if missing is not None or first > last:
                raise _refused(
                    number,
                    f"episode of session {named(self._current)} spans turns "
                    f"{first}-{last}, but the file holds no turn with seq "
                    f"{missing if missing is not None else first} there",
                )
        before: tuple[int, int, int] | None = None
        for episode in sorted(self._episodes, key=lambda e: e[1]):
            if before is not None and episode[1] <= before[2]:
                number = max(episode[0], before[0])
                raise _refused(
                    number,
                    f"episodes of session {named(self._current)} overlap: turns {before[1]}-"
                    f"{before[2]} and {episode[1]}-{episode[2]} (a turn is in one episode)",
                )
            before = episode
        self._current, self._seqs, self._ids, self._episodes = None, {}, {}, []

    def _check_segmented(self, want: SessionDigest) -> None:
        """The session's ``segmented_upto_seq`` names a turn its episodes end at or after, and
        no turn past its last (0: none segmented yet)."""
        upto, last = want.segmented_upto, want.last_seq if want.turns else 0
        cut = max((episode_last for _, _, episode_last in self._episodes), default=0)
        if 0 <= upto <= last and upto >= cut:
            return
        if upto < 0:
            why = "is negative"
        elif upto > last:
            why = f"is past its last turn (seq {last})" if want.turns else "but it has no turns"
        else:
            why = (
                f"is before seq {cut}, where an episode of it ends: those turns would be cut "
                "into episodes again"
            )
        raise InvalidInput(
            f"line {want.line}: session {named(self._current)}: segmented_upto_seq "
            f"{upto} {why}; nothing was imported",
            line=want.line,
            record="session",
            field="segmented_upto_seq",
        )

    def _inside(self, record: dict[str, Any], number: int, what: str) -> None:
        if self._current is None:
            raise _refused(
                number,
                f"a {what} before any session record (a session's turns "
                "and episodes follow its record)",
            )
        if record["session_id"] != self._current:
            raise _refused(
                number,
                f"a {what} of session {named(record['session_id'])} among the "
                f"records of session {named(self._current)}",
            )


def _refused(number: int, message: str) -> InvalidInput:
    return InvalidInput(f"line {number}: {message}; nothing was imported", line=number)


def check_present_sessions(
    restore: PersonaRestoreHandle,
    persona: str,
    sessions: dict[str, SessionDigest],
    present: frozenset[str],
) -> None:
    """Refuse (409) a file session the persona holds with other turns than the file's."""
    for session_id, want in sessions.items():
        if session_id not in present or not want.turns:
            continue
        rows = restore.session_turns(session_id, want.first_seq, want.last_seq)
        digest = sum(turn_digest(*row) for row in rows) % _MOD
        if len(rows) != want.turns or digest != want.digest:
            raise Conflict(
                f"session {named(session_id)} (line {want.line}) is already in persona "
                f"{named(persona)} "
                f"with other turns than the file's between seq {want.first_seq} and "
                f"{want.last_seq} ({len(rows)} stored, {want.turns} in the file): importing "
                "would drop the file's turns; nothing was imported. Import into another "
                "persona, or delete that session first",
                persona=persona,
                session_id=session_id,
            )
