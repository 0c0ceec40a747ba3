"""The judge's training command is deterministic and says what produced its file: the same
command on the same data writes the same bytes, with a provenance record (sources, options, code,
a digest of every feature fitted on) that ``--check`` compares with today's measurements."""

from __future__ import annotations

import json
import sys
import warnings
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"
if str(BENCH) not in sys.path:
    sys.path.insert(0, str(BENCH))  # scripts run as `python bench/x.py` import `lib.*`

import _classify_provenance as provenance  # noqa: E402
import train_classifier  # noqa: E402
from _classify_data import HOLDOUTS, NOTES  # noqa: E402

# Invented pairs, a few of each label and language: enough for the net and the block directions.
_EN = [
    ("The user lives in {a}.", "The user moved to {b} last month.", "CONTRADICTORY"),
    ("The user works as a {a}.", "The user now works as a {b}.", "CONTRADICTORY"),
    ("The user lives in {a}.", "The user lives in {a} with two cats.", "EXTENDABLE"),
    ("The user works as a {a}.", "The user has worked as a {a} for six years.", "EXTENDABLE"),
    ("The user likes {a} tea.", "The user's brother collects {b} stamps.", "INDEPENDENT"),
]
_JA = [
    ("ユーザーは{a}に住んでいる。", "ユーザーは先月{b}に引っ越した。", "CONTRADICTORY"),
    ("ユーザーは{a}として働いている。", "ユーザーは今は{b}として働いている。", "CONTRADICTORY"),
    ("ユーザーは{a}に住んでいる。", "ユーザーは{a}で猫二匹と暮らしている。", "EXTENDABLE"),
    ("ユーザーは{a}が好きだ。", "ユーザーの兄は{b}を集めている。", "INDEPENDENT"),
]
_WORDS = [("Lindholm", "Varo"), ("Quenby", "Ostrava"), ("Marrow", "Tessel")]
_JA_WORDS = [("松江", "秋田"), ("看護師", "教師"), ("紅茶", "切手")]


def _fixture(path: Path) -> Path:
    rows = []
    for n, (a, b) in enumerate(_WORDS):
        rows += [
            {"id": f"e{n}{k}", "lang": "en", "old": o.format(a=a), "new": w.format(a=a, b=b)}
            | {"label": label}
            for k, (o, w, label) in enumerate(_EN)
        ]
    for n, (a, b) in enumerate(_JA_WORDS):
        rows += [
            {"id": f"j{n}{k}", "lang": "ja", "old": o.format(a=a), "new": w.format(a=a, b=b)}
            | {"label": label}
            for k, (o, w, label) in enumerate(_JA)
        ]
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), "utf-8")
    return path


def _argv(data: Path, out: Path) -> list[str]:
    return [
        "--data",
        str(data),
        "--leave-out",
        ",".join([*HOLDOUTS, *NOTES]),
        "--embedders",
        "hash",
        "--judge",
        "hash",
        "--at",
        "0.8,0.7",
        "--features",
        "rules+slots+scope+subject+align",
        "--blocks",
        "parts+sym",
        "--related",
        "ja:0.6",
        "--judge-out",
        str(out / "judge.json"),
        "--out",
        str(out / "report"),
    ]


def _train(argv: list[str]) -> int:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # a net on 27 pairs does not converge; no matter here
        return train_classifier.main(argv)


def test_the_same_command_on_the_same_data_writes_the_same_judge_file(tmp_path: Path) -> None:
    pytest.importorskip("sklearn")
    data = _fixture(tmp_path / "pairs.jsonl")
    first, second = tmp_path / "a", tmp_path / "b"
    first.mkdir(), second.mkdir()
    assert _train(_argv(data, first)) == 0
    assert _train(_argv(data, second)) == 0
    written = (first / "judge.json").read_bytes()
    assert written == (second / "judge.json").read_bytes()
    judge = json.loads(written)
    record = judge["provenance"]
    assert record["sources"] == [
        {
            "name": "pairs",
            "file": "pairs.jsonl",
            "pairs": 27,
            "sha256": provenance.file_digest(data),
        }
    ]
    assert record["options"]["distractors"] == 0 and record["options"]["at"] == {
        "en": 0.8,
        "ja": 0.7,
    }
    assert record["options"]["net"]["seed"] == 0 and "--at 0.8,0.7" in record["command"]
    read = record["inputs"]["hash"]["features"]
    assert read and set(read) == set(judge["models"][0]["features"])
    assert judge["models"][0]["related_thresholds"] == {"ja": 0.6}
    assert record["code_sha256"] == provenance.code_digest()


def test_check_names_the_features_whose_values_moved_since_the_file_was_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("sklearn")
    data = _fixture(tmp_path / "pairs.jsonl")
    assert _train(_argv(data, tmp_path)) == 0
    check = [*_argv(data, tmp_path), "--check"]
    assert train_classifier.main(check) == 0
    path = tmp_path / "judge.json"
    judge = json.loads(path.read_text("utf-8"))
    judge["provenance"]["inputs"]["hash"]["features"]["coverage"] = "0" * provenance.DIGEST
    path.write_text(json.dumps(judge), "utf-8")
    capsys.readouterr()
    assert train_classifier.main(check) == 1
    assert "feature coverage: values moved" in capsys.readouterr().err


def test_a_judge_per_language_is_one_command_with_a_model_and_a_record_per_language(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("sklearn")
    data = _fixture(tmp_path / "pairs.jsonl")
    first, second = tmp_path / "a", tmp_path / "b"
    first.mkdir(), second.mkdir()
    assert _train([*_argv(data, first), "--by-language"]) == 0
    assert _train([*_argv(data, second), "--by-language"]) == 0
    written = (first / "judge.json").read_bytes()
    assert written == (second / "judge.json").read_bytes()
    judge = json.loads(written)
    (entry,) = judge["models"]
    en, ja = entry["languages"]["en"], entry["languages"]["ja"]
    assert en["language_thresholds"] == {"en": 0.8} and ja["language_thresholds"] == {"ja": 0.7}
    assert ja["related_thresholds"] == {"ja": 0.6} and "related_thresholds" not in en
    assert en["weights"] != ja["weights"]
    record = judge["provenance"]
    assert record["options"]["by_language"] is True and "--by-language" in record["command"]
    assert set(record["inputs"]["hash"]) == {"en", "ja"}
    assert (
        record["inputs"]["hash"]["en"]["rows"] == 15
        and record["inputs"]["hash"]["ja"]["rows"] == 12
    )
    check = [*_argv(data, first), "--by-language", "--check"]
    assert train_classifier.main(check) == 0
    path = first / "judge.json"
    judge["provenance"]["inputs"]["hash"]["ja"]["features"]["coverage"] = "0" * provenance.DIGEST
    path.write_text(json.dumps(judge), "utf-8")
    capsys.readouterr()
    assert train_classifier.main(check) == 1
    err = capsys.readouterr().err
    assert "hash en: inputs as recorded" in err and "feature coverage: values moved" in err


def test_a_kept_language_carries_the_packaged_model_and_where_it_came_from(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("sklearn")
    data = _fixture(tmp_path / "pairs.jsonl")
    assert _train(_argv(data, tmp_path)) == 0  # one model for both languages: "the package"
    packaged = json.loads((tmp_path / "judge.json").read_text("utf-8"))
    monkeypatch.setattr(train_classifier, "OUT", tmp_path / "judge.json")
    out = tmp_path / "per"
    out.mkdir()
    assert _train([*_argv(data, out), "--by-language", "--keep-language", "en"]) == 0
    judge = json.loads((out / "judge.json").read_text("utf-8"))
    (entry,) = judge["models"]
    assert entry["languages"]["en"] == packaged["models"][0]
    assert entry["languages"]["ja"]["language_thresholds"] == {"ja": 0.7}
    record = judge["provenance"]
    assert set(record["inputs"]["hash"]) == {"ja"}
    kept = record["kept_languages"]["en"]
    assert kept["model_sha256"] == provenance.json_digest(packaged["models"][0])
    assert kept["command"] == packaged["provenance"]["command"]


def test_the_nets_width_and_penalty_are_flags_recorded_in_the_file(tmp_path: Path) -> None:
    pytest.importorskip("sklearn")
    data = _fixture(tmp_path / "pairs.jsonl")
    assert _train([*_argv(data, tmp_path), "--by-language", "--units", "8", "--alpha", "3"]) == 0
    judge = json.loads((tmp_path / "judge.json").read_text("utf-8"))
    (entry,) = judge["models"]
    for model in entry["languages"].values():
        assert len(model["hidden"]["weights"]) == 8  # one row per hidden unit
    record = judge["provenance"]
    assert record["options"]["net"] == {"units": 8, "alpha": 3.0, "max_iter": 300, "seed": 0}
    assert "--units 8 --alpha 3" in record["command"]


def test_a_sentence_threshold_chosen_before_goes_to_its_languages_model(tmp_path: Path) -> None:
    pytest.importorskip("sklearn")
    data = _fixture(tmp_path / "pairs.jsonl")
    argv = [*_argv(data, tmp_path), "--by-language", "--sentence-at", "ja:0.99"]
    assert _train(argv) == 0
    judge = json.loads((tmp_path / "judge.json").read_text("utf-8"))
    (entry,) = judge["models"]
    assert entry["languages"]["ja"]["sentence_threshold"] == 0.99
    assert entry["languages"]["en"]["sentence_threshold"] is None  # none given: never
    record = judge["provenance"]
    assert record["options"]["sentence_at"] == {"ja": 0.99}
    assert "--sentence-at ja:0.99" in record["command"]
    with pytest.raises(SystemExit, match="with --at and --by-language"):
        train_classifier.main([*_argv(data, tmp_path), "--sentence-at", "ja:0.99"])


def test_a_judge_file_named_as_the_reports_json_is_refused_before_anything_is_fitted(
    tmp_path: Path,
) -> None:
    # `--out X --judge-out X.json` wrote the judge and then the report over it (session 41)
    data = _fixture(tmp_path / "pairs.jsonl")
    argv = _argv(data, tmp_path)
    argv[argv.index("--judge-out") + 1] = str(tmp_path / "report.json")
    with pytest.raises(SystemExit, match="is a file of the report"):
        train_classifier.main(argv)
    argv[argv.index("--out") + 1] = str(tmp_path / "report.md")  # the suffix is dropped too
    with pytest.raises(SystemExit, match="is a file of the report"):
        train_classifier.main(argv)
    assert not (tmp_path / "report.json").exists() and not (tmp_path / "report.md").exists()


def test_several_nets_are_a_grid_compared_by_loso() -> None:
    args = train_classifier.arguments().parse_args(["--units", "16,32", "--alpha", "1,3"])
    nets = train_classifier.nets_of(args)
    assert nets == ((16, 1.0), (16, 3.0), (32, 1.0), (32, 3.0))
    only = {"features": "rules+slots+scope", "blocks": "parts"}
    grid = train_classifier._grid(object(), only, "net", nets)
    assert [(c.units, c.alpha) for c in grid] == list(nets)
    assert grid[0].label().endswith("net of 16 units, alpha 1") and grid[2].label().endswith("net")
    assert train_classifier._net_record(nets)["compared"] == [list(n) for n in nets]
    default = train_classifier.nets_of(train_classifier.arguments().parse_args([]))
    assert train_classifier._net_record(default) == train_classifier.NET


def test_moved_lists_each_difference_and_nothing_for_the_same_inputs() -> None:
    stored = {"rows": 3, "labels": "a", "vectors": "v", "features": {"x": "1", "y": "2"}}
    assert provenance.moved(stored, dict(stored)) == []
    now = {"rows": 4, "labels": "a", "vectors": "w", "features": {"x": "1", "y": "3", "z": "4"}}
    assert provenance.moved(stored, now) == [
        "rows: 3 → 4",
        "vectors: v → w",
        "feature y: values moved",
        "feature z: new",
    ]


def test_a_judge_file_records_no_time_and_no_path_of_this_machine(tmp_path: Path) -> None:
    outside = tmp_path / "set.jsonl"
    outside.write_text('{"id": "1"}\n', "utf-8")
    record = provenance.sources_record({"s": outside}, {"s": 1})
    assert record == [
        {"name": "s", "file": "set.jsonl", "pairs": 1, "sha256": provenance.file_digest(outside)}
    ]
    assert provenance.code_digest() == provenance.code_digest()
