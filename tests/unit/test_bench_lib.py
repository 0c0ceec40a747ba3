"""Smoke test of the bench package's shared parts (``bench/lib``) on tiny samples written here:
the LoCoMo and retrieval_ja loaders, the budget scoring, the table helper and the parser."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"
if str(BENCH) not in sys.path:
    sys.path.insert(0, str(BENCH))  # scripts run as `python bench/x.py` import `lib.*`

from lib import cli, datasets, metrics, reports  # noqa: E402

LOCOMO = {
    "conversation": {
        "speaker_a": "Ana",
        "speaker_b": "Ben",
        "session_1_date_time": "1:56 pm on 8 May, 2023",
        "session_1": [
            {"speaker": "Ana", "dia_id": "D1:1", "text": "I adopted a cat."},
            {"speaker": "Ben", "dia_id": "D1:2", "text": "Look!", "blip_caption": "a red bike"},
        ],
        "session_2_date_time": "10:00 am on 9 May, 2023",
        "session_2": [{"speaker": "Ana", "dia_id": "D2:01", "text": "The cat is called Miso."}],
        "session_3_date_time": "11:00 am on 10 May, 2023",
        "session_3": [],
    },
    "qa": [
        {
            "question": "What did Ana adopt?",
            "answer": "a cat",
            "evidence": ["D:1:1"],
            "category": 4,
        },
        {
            "question": "Cat's name?",
            "answer": "Miso",
            "evidence": ["D2:01; D1:1", "D"],
            "category": 1,
        },
        {"question": "Ben's dog?", "adversarial_answer": "Rex", "evidence": [], "category": 5},
    ],
    "observation": {},
    "session_1_observation": {"Ana": [["Ana adopted a cat.", "D1:1"]]},
    "session_1_summary": "Ana adopted a cat.",
}


@pytest.fixture
def locomo_dir(tmp_path: Path) -> Path:
    (tmp_path / "7.json").write_text(json.dumps(LOCOMO), encoding="utf-8")
    (tmp_path / "notes.txt").write_text("not a conversation", encoding="utf-8")
    return tmp_path


def test_the_locomo_loader_irons_out_the_data_quirks(locomo_dir: Path) -> None:
    [conv] = datasets.load_conversations(locomo_dir)
    assert (conv.sample_id, conv.speaker_a, conv.speaker_b) == ("7", "Ana", "Ben")
    assert [s.number for s in conv.sessions] == [1, 2]  # the empty session 3 is dropped
    assert conv.sessions[0].date_time is not None and conv.sessions[0].date_time.hour == 13
    turns = list(conv.turns())
    assert [t.dia_id for t in turns] == ["D1:1", "D1:2", "D2:1"]  # "D2:01" made canonical
    assert turns[1].render() == "Ben: Look! [shares a photo: a red bike]"
    assert [qa.evidence for qa in conv.qa] == [("D1:1",), ("D2:1", "D1:1"), ()]
    assert conv.qa[2].answer is None and conv.qa[2].adversarial_answer == "Rex"
    assert conv.observations[0].evidence == ("D1:1",)
    assert conv.summaries == {1: "Ana adopted a cat."}
    assert set(conv.turn_index()) == {"D1:1", "D1:2", "D2:1"}


def test_the_retrieval_set_loader_reads_memories_and_queries(tmp_path: Path) -> None:
    path = tmp_path / "dev.jsonl"
    rows = [
        {"type": "memory", "id": "m1", "lang": "ja", "content": "ユーザーは大阪に住んでいる"},
        {
            "type": "query",
            "id": "q1",
            "lang": "en",
            "query": "Where?",
            "relevant": ["m1"],
            "kind": "crosslingual",
        },
    ]
    path.write_text(
        "\n".join(json.dumps(r, ensure_ascii=False) for r in rows) + "\n\n", encoding="utf-8"
    )
    data = datasets.load_retrieval_set(path)
    assert data.memories == {"m1": "ユーザーは大阪に住んでいる"}
    assert data.queries[0].relevant == frozenset({"m1"})
    assert data.queries[0].kind == "crosslingual"


def test_budget_scoring_counts_only_what_fits(locomo_dir: Path) -> None:
    [conv] = datasets.load_conversations(locomo_dir)
    qa = conv.qa[1]  # evidence D2:1 and D1:1, answer "Miso"
    note = metrics.Retrieved("note", "The cat is called Miso.", ("D2:1",))
    excerpt = metrics.lines_result("episode", ["[2023-05-08]"], [("Ana: I adopted a cat.", "D1:1")])
    both = metrics.score_question(qa, [note, excerpt], budget=100)
    assert (both.recall, both.contained, both.rr) == (1.0, True, 1.0)
    tight = metrics.score_question(qa, [excerpt, note], budget=9)  # 36 characters
    assert tight.recall == 0.5 and not tight.contained
    assert tight.recall_trunc == 0.5  # the cut note cites nothing
    summary = metrics.summarise([both, tight])
    assert summary["evidence_recall"] == 0.75 and summary["questions"] == 2
    assert metrics.rank_summary([1, None, 2])["mrr"] == 0.5


def test_the_wilson_lower_bound_needs_evidence() -> None:
    assert metrics.wilson_lower(0, 0, 1.96) == 0.0
    assert round(metrics.wilson_lower(13, 13, 1.96), 4) == 0.7719  # 13 of 13: not yet 0.95
    assert metrics.wilson_lower(13, 13, 1.0) > metrics.wilson_lower(13, 13, 1.96)  # looser z
    assert metrics.wilson_lower(80, 80, 1.96) > 0.95 > metrics.wilson_lower(76, 80, 1.96)


def test_reports_and_the_parser(tmp_path: Path) -> None:
    assert reports.md_table(["a", "b"], [[1, "x"]]) == "| a | b |\n|---|---|\n| 1 | x |"
    md, js = reports.write_results(tmp_path / "r", "# r", {"n": 1})
    assert md.read_text() == "# r\n" and json.loads(js.read_text()) == {"n": 1}
    # a dot inside the name is part of it (runs named by a parameter never overwrite each
    # other); a given .md / .json is dropped
    md, js = reports.write_results(tmp_path / "r_beta0.5", "# b", {})
    assert (md.name, js.name) == ("r_beta0.5.md", "r_beta0.5.json")
    assert reports.write_results(tmp_path / "s.md", "# s", {})[1].name == "s.json"
    # a markdown listing keeps the name it is given and ends in exactly one newline
    listing = reports.write_markdown(tmp_path / "deep" / "misses.txt", "# m\n\nかな\n\n")
    assert listing.name == "misses.txt" and listing.read_text(encoding="utf-8") == "# m\n\nかな\n"
    args = cli.parser("Doc.\n\nMore.", out="x", data="locomo").parse_args([])
    assert args.data == datasets.DATA_ROOT / "locomo"
    assert args.out == reports.RESULTS / "x" and not args.json
    args = cli.parser(None, out="x", data="locomo").parse_args(["--data", str(tmp_path)])
    assert args.data == tmp_path


def test_a_report_is_finished_by_printing_and_writing_its_lines(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert reports.finish(["# f", "", "done"], {"n": 2}, tmp_path / "f") == 0
    assert capsys.readouterr().out == "# f\n\ndone\n"
    assert (tmp_path / "f.md").read_text() == "# f\n\ndone\n"
    assert json.loads((tmp_path / "f.json").read_text()) == {"n": 2}
    assert reports.finish(["# g"], {}, None) == 0 and not (tmp_path / "g.md").exists()


def test_segmentation_and_word_overlap_helpers() -> None:
    from lib import embed_cache, segmentation  # noqa: F401 - importable on their own

    assert segmentation.boundary_matches([3, 9, 20], [4, 10, 15], tolerance=2) == 2
    assert segmentation.boundary_matches([5], [4, 6], tolerance=2) == 1  # one-to-one
    assert segmentation.pk([10], [10], 20) == 0.0
    assert segmentation.pk([], [10], 20) > 0.0
    assert metrics.contains_words("We hiked up Mount Fuji in July", "hiked Fuji with friends")
    assert not metrics.contains_words("We stayed home", "hiked Fuji with friends")
