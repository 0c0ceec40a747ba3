"""The shared benchmark data (``../shared/bench``, beside the repository; read, never copied).

**LoCoMo** (per-conversation JSON, as in the public LoCoMo repository) — the one loader every
LoCoMo benchmark uses (retrieval, segmentation, consolidation, chat, tokens). Each file becomes
frozen dataclasses: sessions in order with their parsed dates and turns, QA items with their
evidence ids normalised, and the per-session observations and summaries. No scoring here.

    for conv in load_conversations(DEFAULT_LOCOMO_DIR):
        for session in conv.sessions:
            print(session.number, session.date_time, len(session.turns))

**retrieval_ja** (``load_retrieval_set``): memories and judged queries, one JSON object a line.

The LoCoMo data has a few quirks this module irons out, so callers need not:

- ``session_N_date_time`` also exists for sessions that have no turns (e.g. 20–35 in some files);
  only sessions with turns are kept.
- evidence ids are sometimes malformed: ``D:11:26`` (extra colon), ``D30:05`` (zero-padded),
  ``D8:6; D9:17`` (two ids in one string) or a bare ``D``; :func:`normalise_evidence` fixes or
  drops them.
- a turn that shares a photo carries ``blip_caption``; :meth:`LocomoTurn.render` appends it the
  way the reference BM25 numbers in ``shared/bench/README.md`` were measured.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

__all__ = [
    "DATA_ROOT",
    "DEFAULT_LOCOMO_DIR",
    "LocomoConversation",
    "LocomoObservation",
    "LocomoQA",
    "LocomoSession",
    "LocomoTurn",
    "RetrievalQuery",
    "RetrievalSet",
    "list_conversation_files",
    "load_conversation",
    "load_conversations",
    "load_retrieval_set",
    "normalise_dia_id",
    "normalise_evidence",
    "parse_session_datetime",
    "real_memory_texts",
]

# bench/ sits in the repo; the shared data sits beside the repo, never inside it.
DATA_ROOT = Path(__file__).resolve().parents[3] / "shared" / "bench"
DEFAULT_LOCOMO_DIR = DATA_ROOT / "locomo"

_SESSION_KEY = re.compile(r"session_(\d+)")
# Lenient: "D", optional stray colon, session digits, separator, turn digits ("D:11:26", "D30:05").
# Matched against each fragment whole (after splitting on ";", "," and spaces before a "D"), and
# turn ids go through it too, so evidence and turns always meet in the same canonical form.
_DIA_ID = re.compile(r"D\s*:?\s*(\d+)\s*:\s*(\d+)")
_DATE_FORMATS = ("%I:%M %p on %d %B, %Y", "%I:%M %p on %d %b, %Y", "%d %B, %Y", "%d %B %Y")


@dataclass(frozen=True)
class LocomoTurn:
    """One utterance. ``dia_id`` is canonical (``D<session>:<turn>``, no zero padding)."""

    dia_id: str
    session: int
    speaker: str
    text: str
    image_caption: str | None = None  # the data's ``blip_caption`` when the turn shares a photo

    def render(self, *, with_speaker: bool = True, with_caption: bool = True) -> str:
        """``Speaker: text [shares a photo: caption]`` (either part can be left out)."""
        out = f"{self.speaker}: {self.text}" if with_speaker else self.text
        if with_caption and self.image_caption:
            out += f" [shares a photo: {self.image_caption}]"
        return out


@dataclass(frozen=True)
class LocomoSession:
    number: int  # N in ``session_N``; sessions are numbered from 1
    date_time: datetime | None  # parsed ``session_N_date_time`` (naive, as written); None if absent
    date_time_raw: str  # the string as written, e.g. "1:56 pm on 8 May, 2023"
    turns: tuple[LocomoTurn, ...]


@dataclass(frozen=True)
class LocomoQA:
    question: str
    answer: str | None  # None for some adversarial (category 5) items
    evidence: tuple[str, ...]  # canonical dia_ids, see normalise_evidence
    category: int  # 1 multi-hop, 2 temporal, 3 open-domain, 4 single-hop, 5 adversarial
    adversarial_answer: str | None = None


@dataclass(frozen=True)
class LocomoObservation:
    """A fact the dataset's authors extracted from one session, with the turns it came from."""

    session: int
    speaker: str
    text: str
    evidence: tuple[str, ...]


@dataclass(frozen=True)
class LocomoConversation:
    sample_id: str  # the file's stem, e.g. "26"
    speaker_a: str
    speaker_b: str
    sessions: tuple[LocomoSession, ...]  # only sessions with turns, in number order
    qa: tuple[LocomoQA, ...] = ()
    observations: tuple[LocomoObservation, ...] = ()
    summaries: Mapping[int, str] = field(default_factory=dict)  # session number -> summary

    def turns(self) -> Iterator[LocomoTurn]:
        """Every turn of every session, in conversation order."""
        for session in self.sessions:
            yield from session.turns

    def turn_index(self) -> dict[str, LocomoTurn]:
        """dia_id -> turn, to resolve evidence ids."""
        return {t.dia_id: t for t in self.turns()}


def normalise_dia_id(raw: str) -> str | None:
    """``"D:11:26"`` -> ``"D11:26"``, ``"D30:05"`` -> ``"D30:5"``; None when it is no id."""
    match = _DIA_ID.fullmatch(raw.strip())
    if match is None:
        return None
    return f"D{int(match.group(1))}:{int(match.group(2))}"


def normalise_evidence(raw: str | Iterable[str] | None) -> tuple[str, ...]:
    """Evidence (one string or a list) -> canonical, de-duplicated dia_ids in order.

    A string may hold several ids (``"D8:6; D9:17"``); fragments that are no id (``"D"``) are
    dropped rather than guessed.
    """
    if raw is None:
        return ()
    items = [raw] if isinstance(raw, str) else list(raw)
    out: list[str] = []
    for item in items:
        for fragment in re.split(r"[;,]|\s+(?=D)", str(item)):
            dia_id = normalise_dia_id(fragment) if fragment.strip() else None
            if dia_id is not None and dia_id not in out:
                out.append(dia_id)
    return tuple(out)


def parse_session_datetime(raw: str) -> datetime | None:
    """``"1:56 pm on 8 May, 2023"`` -> ``datetime(2023, 5, 8, 13, 56)``; None if unparseable."""
    text = " ".join(raw.split())
    for fmt in _DATE_FORMATS:
        try:
            return datetime.strptime(text, fmt)
        except ValueError:
            continue
    return None


def list_conversation_files(data_dir: Path | str = DEFAULT_LOCOMO_DIR) -> list[Path]:
    """The ``*.json`` files in ``data_dir``, sorted by name."""
    directory = Path(data_dir)
    if not directory.is_dir():
        raise FileNotFoundError(f"no LoCoMo directory at {directory}")
    return sorted(directory.glob("*.json"))


def load_conversations(data_dir: Path | str = DEFAULT_LOCOMO_DIR) -> list[LocomoConversation]:
    """Every conversation in ``data_dir``, in file-name order."""
    return [load_conversation(path) for path in list_conversation_files(data_dir)]


def load_conversation(path: Path | str) -> LocomoConversation:
    """One conversation file (either the bare conversation or ``{"conversation": {...}}``)."""
    path = Path(path)
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    conv = data.get("conversation", data)
    sessions = _sessions(conv)
    return LocomoConversation(
        sample_id=str(data.get("sample_id", path.stem)),
        speaker_a=str(conv.get("speaker_a", "")),
        speaker_b=str(conv.get("speaker_b", "")),
        sessions=sessions,
        qa=tuple(_qa(item) for item in data.get("qa", [])),
        observations=_observations(data),
        summaries=_summaries(data),
    )


def _sessions(conv: Mapping[str, Any]) -> tuple[LocomoSession, ...]:
    numbers = sorted(
        int(m.group(1))
        for key in conv
        if (m := _SESSION_KEY.fullmatch(key)) and isinstance(conv[key], list) and conv[key]
    )
    out = []
    for number in numbers:
        raw_date = str(conv.get(f"session_{number}_date_time", ""))
        turns = tuple(_turn(item, number) for item in conv[f"session_{number}"])
        out.append(LocomoSession(number, parse_session_datetime(raw_date), raw_date, turns))
    return tuple(out)


def _turn(item: Mapping[str, Any], session: int) -> LocomoTurn:
    dia_id = normalise_dia_id(str(item.get("dia_id", ""))) or str(item.get("dia_id", ""))
    caption = item.get("blip_caption")
    return LocomoTurn(
        dia_id=dia_id,
        session=session,
        speaker=str(item.get("speaker", "")),
        text=str(item.get("text", "")),
        image_caption=str(caption) if caption else None,
    )


def _qa(item: Mapping[str, Any]) -> LocomoQA:
    answer = item.get("answer")
    adversarial = item.get("adversarial_answer")
    return LocomoQA(
        question=str(item.get("question", "")),
        answer=None if answer is None else str(answer),
        evidence=normalise_evidence(item.get("evidence")),
        category=int(item.get("category", 0)),
        adversarial_answer=None if adversarial is None else str(adversarial),
    )


def _observations(data: Mapping[str, Any]) -> tuple[LocomoObservation, ...]:
    out = []
    for key, value in data.items():
        match = re.fullmatch(r"session_(\d+)_observation", key)
        if match is None or not isinstance(value, Mapping):
            continue
        for speaker, facts in value.items():
            for fact in facts:
                text, evidence = (fact[0], fact[1]) if len(fact) >= 2 else (fact[0], None)
                out.append(
                    LocomoObservation(
                        int(match.group(1)), str(speaker), str(text), normalise_evidence(evidence)
                    )
                )
    return tuple(sorted(out, key=lambda o: o.session))


def _summaries(data: Mapping[str, Any]) -> dict[int, str]:
    out = {}
    for key, value in data.items():
        match = re.fullmatch(r"session_(\d+)_summary", key)
        if match is not None and isinstance(value, str):
            out[int(match.group(1))] = value
    return dict(sorted(out.items()))


# -- retrieval_ja -------------------------------------------------------------------------------


@dataclass(frozen=True)
class RetrievalQuery:
    id: str
    query: str
    relevant: frozenset[str]  # memory ids that answer it
    kind: str  # keyword, paraphrase, crosslingual, direct
    lang: str


@dataclass(frozen=True)
class RetrievalSet:
    memories: dict[str, str]  # id -> content, in file order
    queries: tuple[RetrievalQuery, ...]


def load_retrieval_set(path: Path | str) -> RetrievalSet:
    """``retrieval_ja/dev.jsonl``: ``memory`` rows and ``query`` rows (blank lines skipped)."""
    memories: dict[str, str] = {}
    queries = []
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        row = json.loads(line)
        if row["type"] == "memory":
            memories[str(row["id"])] = str(row["content"])
        elif row["type"] == "query":
            queries.append(
                RetrievalQuery(
                    str(row["id"]),
                    str(row["query"]),
                    frozenset(row["relevant"]),
                    str(row.get("kind", "")),
                    str(row.get("lang", "")),
                )
            )
    return RetrievalSet(memories, tuple(queries))


def real_memory_texts(data: Path) -> list[str]:
    """Memory-style texts written by people: LoCoMo observations and the Japanese retrieval
    corpus, interleaved so any prefix mixes both languages. Empty if the data is missing."""
    english: list[str] = []
    locomo = data / "locomo"
    if locomo.is_dir():
        english = [o.text for c in load_conversations(locomo) for o in c.observations]
    japanese: list[str] = []
    ja_file = data / "retrieval_ja" / "dev.jsonl"
    if ja_file.is_file():
        japanese = list(load_retrieval_set(ja_file).memories.values())
    out: list[str] = []
    step = max(1, len(english) // max(1, len(japanese)))
    for i, text in enumerate(japanese):
        out.extend(english[i * step : (i + 1) * step])
        out.append(text)
    out.extend(english[len(japanese) * step :])
    return list(dict.fromkeys(out))
