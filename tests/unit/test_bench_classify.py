"""The 3-op classification bench: scoring any pairs file by path, and the judge's training
helpers that need no scikit-learn (the block projection folded into whole-vector weights,
the twin groups of cross-validation, the embedding cache)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

BENCH = Path(__file__).resolve().parents[2] / "bench"
if str(BENCH) not in sys.path:
    sys.path.insert(0, str(BENCH))  # scripts run as `python bench/x.py` import `lib.*`

import _classify_data as cdata  # noqa: E402
import _classify_loso as loso  # noqa: E402
import _classify_model as model  # noqa: E402
import _classify_thresholds as thresholds_mod  # noqa: E402
import classify  # noqa: E402
import classify_split  # noqa: E402
from _classify_common import CachedEmbedder, Pair, load_pairs, model_file  # noqa: E402
from omoide.embed.hashing import HashEmbedder  # noqa: E402

ROWS = [
    {
        "id": "h1",
        "lang": "en",
        "old": "User lives in Leeds.",
        "new": "User moved to York.",
        "label": "CONTRADICTORY",
        "difficulty": "easy",
        "kind": "moved",
    },
    {
        "id": "h2",
        "lang": "en",
        "old": "User has a dog.",
        "new": "User's dog is called Rex.",
        "label": "EXTENDABLE",
        "difficulty": "easy",
        "kind": "name",
    },
    {
        "id": "h3",
        "lang": "ja",
        "old": "ユーザーは犬を飼っている",
        "new": "ユーザーの姉は猫を飼っている",
        "label": "INDEPENDENT",
        "difficulty": "medium",
        "kind": "different_subject",
    },
]


def _write(path: Path, rows: list[dict[str, str]]) -> Path:
    path.write_text(
        "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8"
    )
    return path


def test_any_pairs_file_is_scored_alone_under_its_split_name(tmp_path: Path) -> None:
    pairs = _write(tmp_path / "held.jsonl", ROWS)
    out = tmp_path / "report"
    assert (
        classify.main(
            ["--engine", "rules", "--pairs", str(pairs), "--split", "holdout", "--out", str(out)]
        )
        == 0
    )
    report = json.loads(out.with_suffix(".json").read_text(encoding="utf-8"))
    assert list(report["sets"]) == ["holdout"]  # no dev set, no other split
    scored = report["sets"]["holdout"]
    assert scored["n"] == 3 and set(scored["by_lang"]) == {"en", "ja"}
    assert set(scored["by_difficulty"]) == {"easy", "medium"}
    assert set(scored["by_kind"]) == {"C:moved", "E:name", "I:different_subject"}
    assert set(scored["per_label"]["CONTRADICTORY"]) >= {"precision", "recall", "f1"}
    markdown = out.with_suffix(".md").read_text(encoding="utf-8")
    assert "--split holdout" in markdown and "### by kind" in markdown
    # the report's command is the one run, every option as given (a rerun reproduces it)
    assert f"--pairs {pairs} --split holdout --out {out}`" in markdown
    assert "by_family" not in scored  # only a file with families gets the breakdown


def test_a_file_with_families_is_also_scored_by_family(tmp_path: Path) -> None:
    rows = [{**r, "family": "move" if r["label"] == "CONTRADICTORY" else "other"} for r in ROWS]
    out = tmp_path / "report"
    assert (
        classify.main(
            [
                "--engine",
                "rules",
                "--pairs",
                str(_write(tmp_path / "f.jsonl", rows)),
                "--split",
                "holdout",
                "--out",
                str(out),
            ]
        )
        == 0
    )
    scored = json.loads(out.with_suffix(".json").read_text(encoding="utf-8"))["sets"]["holdout"]
    assert set(scored["by_family"]) == {"move", "other"}
    assert scored["by_family"]["move"]["n"] == 1
    assert "### by family" in out.with_suffix(".md").read_text(encoding="utf-8")


def test_the_under_band_count_keeps_only_contradictions_at_the_bar() -> None:
    pairs = [
        Pair(r["id"], r["lang"], r["old"], r["new"], r["label"], r["difficulty"]) for r in ROWS
    ]
    predictions = [
        classify.Prediction(pairs[0], "CONTRADICTORY", 0.98, "right and sure"),
        classify.Prediction(pairs[1], "CONTRADICTORY", 0.99, "wrong and sure"),
        classify.Prediction(pairs[2], "CONTRADICTORY", 0.8, "not sure enough"),
    ]
    assert classify.under_band_closes(predictions) == {
        "sure": 0.97,
        "n": 2,
        "right": 1,
        "precision": 0.5,
    }
    assert classify.under_band_closes(predictions[2:], sure=0.97)["precision"] is None


def test_the_llm_engine_runs_against_the_local_fake_when_none_is_configured(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("OMOIDE_LLM_PROVIDER", raising=False)
    out = tmp_path / "report"
    assert (
        classify.main(
            [
                "--engine",
                "llm",
                "--pairs",
                str(_write(tmp_path / "p.jsonl", ROWS)),
                "--split",
                "holdout",
                "--out",
                str(out),
            ]
        )
        == 0
    )
    report = json.loads(out.with_suffix(".json").read_text(encoding="utf-8"))
    assert "LOCAL FAKE" in report["classifier"]
    scored = report["sets"]["holdout"]
    assert scored["confusion"]["INDEPENDENT"]["INDEPENDENT"] == 1  # the fake's answer, no fallback
    assert all(e["reason"] == "openai:fake-always-independent: fake" for e in scored["errors"])
    assert scored["under_band"]["n"] == 0
    assert "Sure enough to close" in out.with_suffix(".md").read_text(encoding="utf-8")


def test_a_named_split_picks_only_its_pairs_and_an_absent_one_is_refused() -> None:
    pairs = [
        Pair(r["id"], r["lang"], r["old"], r["new"], r["label"], r["difficulty"], split=s)
        for r, s in zip(ROWS, ("train", "validation", "train"), strict=True)
    ]
    assert [p.id for p in classify.select_sets(pairs, "train")["train"]] == ["h1", "h3"]
    assert set(classify.select_sets(pairs, "")) == {"train", "validation"}
    with pytest.raises(SystemExit):
        classify.select_sets(pairs, "holdout")


@settings(max_examples=25, deadline=None)
@given(st.integers(min_value=0, max_value=2**31 - 1), st.sampled_from(["centroid", "pca2"]))
def test_the_folded_projection_gives_the_same_probabilities(seed: int, reduce: str) -> None:
    # Training reads each embedding block through a few directions; the stored model reads the
    # whole block with folded weights. Both must give the same probabilities.
    rng = np.random.default_rng(seed)
    n, named, dim = 12, 4, 6
    x = rng.normal(size=(n, named))
    blocks = [rng.normal(size=(n, dim)) for _ in range(2)]
    z, fitted = model.project(blocks, reduce, np.arange(n) % 3)
    assert z.shape == (n, 2 * (3 if reduce == "centroid" else 2))
    width = named + z.shape[1]
    params = (
        rng.normal(size=width),
        rng.uniform(0.5, 2.0, size=width),
        rng.normal(size=(3, width)),
        rng.normal(size=3),
    )
    expected = model.probabilities(params, np.hstack([x, z]))
    folded = model.fold_projection(params, named, fitted)
    got = model.probabilities(folded, np.hstack([x, *blocks]))
    assert np.allclose(got, expected, atol=1e-9)


def test_a_pair_and_its_translation_share_a_cross_validation_group() -> None:
    def pair(i: str, lang: str, label: str, kind: str, twin: str = "") -> Pair:
        return Pair(i, lang, "a", "b", label, "easy", "train", kind, twin)

    pairs = [
        pair("1", "en", "C", "moved"),
        pair("2", "en", "C", "moved"),
        pair("3", "ja", "C", "moved"),
        pair("4", "ja", "C", "moved"),
        pair("5", "en", "E", "name", "x1"),
        pair("6", "ja", "E", "name", "x1"),
        pair("7", "en", "E", "name", "x2"),
    ]
    groups = cdata.twin_groups(pairs, ["pairs"] * len(pairs))
    assert groups[0] == groups[2] and groups[1] == groups[3] and groups[0] != groups[1]
    assert groups[4] == groups[5] != groups[6]
    # A source written per language (no translations) keeps every pair in its own group.
    apart = cdata.twin_groups(pairs[:4], ["holdout1"] * 4)
    assert len(set(apart)) == 4 and not set(apart) & set(groups)


def test_the_embedding_cache_returns_the_same_vectors_from_its_file(tmp_path: Path) -> None:
    inner = HashEmbedder()
    texts = ["User likes tea.", "ユーザーは紅茶が好きだ", "User likes tea."]
    first = CachedEmbedder(inner, tmp_path / "cache.npz").embed_passages(texts)
    again = CachedEmbedder(inner, tmp_path / "cache.npz")
    assert set(again._vectors) == set(texts)  # read back from the file, nothing re-embedded
    assert np.array_equal(again.embed_passages(texts), first)
    assert np.allclose(first, inner.embed_passages(texts))


def test_the_embedding_cache_appends_each_batch_and_keeps_it_through_a_crash(
    tmp_path: Path,
) -> None:
    """Session 30: every batch rewrote the whole cache file (~200 MB of e5 vectors). A batch
    is its own file now; the cache is written once, by save() or when the parts are many."""
    inner, path = HashEmbedder(), tmp_path / "cache.npz"
    cached = CachedEmbedder(inner, path)
    cached.embed_passages(["tea"])
    cached.embed_passages(["coffee", "tea"])
    cached.embed_passages(["coffee"])  # nothing new: nothing written
    stem = model_file(path, inner.model_id).stem
    parts = sorted(p.name for p in tmp_path.iterdir())
    assert parts == [f"{stem}.part-00001.npz", f"{stem}.part-00002.npz"]  # the cache untouched
    crashed = CachedEmbedder(inner, path)  # no save(): the batches are still there
    assert set(crashed._vectors) == {"tea", "coffee"}
    crashed.save()
    assert sorted(p.name for p in tmp_path.iterdir()) == [f"{stem}.npz"]
    assert np.allclose(
        CachedEmbedder(inner, path).embed_passages(["coffee", "tea"]),
        inner.embed_passages(["coffee", "tea"]),
    )


def test_a_large_batch_is_embedded_and_written_a_chunk_at_a_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Session 40: a training run measures every source in one batch (~100,000 texts, most of
    an hour of e5 on a shared machine), so a run stopped in it kept nothing."""
    inner, path = HashEmbedder(), tmp_path / "cache.npz"
    monkeypatch.setattr(CachedEmbedder, "CHUNK", 2)
    texts = ["tea", "coffee", "milk", "tea", "water", "juice"]
    got = CachedEmbedder(inner, path).embed_passages(texts)
    assert np.allclose(got, inner.embed_passages(texts))
    stem = model_file(path, inner.model_id).stem
    assert len(list(tmp_path.glob(f"{stem}.part-*.npz"))) == 3  # five new texts, two a part

    calls: list[int] = []

    class Stops(HashEmbedder):
        def embed_passages(self, batch: list[str]) -> np.ndarray:
            if calls:
                raise RuntimeError("stopped")
            calls.append(len(batch))
            return super().embed_passages(batch)

    with pytest.raises(RuntimeError):
        CachedEmbedder(Stops(), tmp_path / "stopped.npz").embed_passages(["a", "b", "c"])
    kept = CachedEmbedder(inner, tmp_path / "stopped.npz")
    assert set(kept._vectors) == {"a", "b"}  # the chunk embedded before the stop


def test_the_embedding_cache_folds_its_parts_once_they_are_many(tmp_path: Path) -> None:
    inner, path = HashEmbedder(), tmp_path / "cache.npz"
    cached = CachedEmbedder(inner, path)
    for i in range(CachedEmbedder.FOLD_PARTS):
        cached.embed_passages([f"text {i}"])
    stem = model_file(path, inner.model_id).stem
    assert len(list(tmp_path.glob(f"{stem}.part-*.npz"))) == CachedEmbedder.FOLD_PARTS
    again = CachedEmbedder(inner, path)
    assert sorted(p.name for p in tmp_path.iterdir()) == [f"{stem}.npz"]
    assert len(again._vectors) == CachedEmbedder.FOLD_PARTS


def test_a_cache_without_autosave_writes_once_at_save(tmp_path: Path) -> None:
    inner, path = HashEmbedder(), tmp_path / "cache.npz"
    cached = CachedEmbedder(inner, path, autosave=False)
    cached.embed_passages(["tea"])
    assert not list(tmp_path.iterdir())
    cached.save()
    assert sorted(p.name for p in tmp_path.iterdir()) == [model_file(path, inner.model_id).name]


class _OtherModel(HashEmbedder):
    """Another model of the same dimension (its vectors the hash model's, negated)."""

    def __init__(self) -> None:
        super().__init__()
        self.model_id = "other-model@1.0"

    def embed_passages(self, texts: list[str]) -> np.ndarray:
        return -super().embed_passages(texts)


def test_the_embedding_cache_never_gives_one_model_another_model_s_vectors(
    tmp_path: Path,
) -> None:
    """The cache was keyed by text alone: another model (another build of the same embedder
    name) under the same cache name was given the first model's vectors."""
    path, texts = tmp_path / "e5.npz", ["User likes tea.", "ユーザーは紅茶が好きだ"]
    first, other = HashEmbedder(), _OtherModel()
    CachedEmbedder(first, path).embed_passages(texts)
    assert np.allclose(
        CachedEmbedder(other, path).embed_passages(texts), -first.embed_passages(texts)
    )
    for each in (first, other):  # each model's vectors kept, in a file of its own
        again = CachedEmbedder(each, path)
        assert set(again._vectors) == set(texts)
        assert np.allclose(again.embed_passages(texts), each.embed_passages(texts))


def _legacy(path: Path, texts: list[str], vectors: np.ndarray) -> None:
    """A cache file as written before the model id was recorded: texts and vectors alone."""
    np.savez(path, texts=np.array(texts), vectors=np.asarray(vectors))


def test_a_cache_written_before_model_ids_is_adopted_only_by_its_model(tmp_path: Path) -> None:
    path, texts = tmp_path / "e5.npz", [f"text {i}" for i in range(10)]
    own, other = HashEmbedder(), _OtherModel()
    _legacy(path, texts, own.embed_passages(texts))
    old = path.read_bytes()
    refused = CachedEmbedder(other, path)  # another model's vectors: not used
    assert refused._vectors == {}
    assert np.allclose(refused.embed_passages(texts[:2]), other.embed_passages(texts[:2]))
    adopted = CachedEmbedder(own, path)  # its own: taken, into its model's file
    assert set(adopted._vectors) == set(texts)
    assert model_file(path, own.model_id).is_file()
    assert set(CachedEmbedder(own, path)._vectors) == set(texts)
    assert path.read_bytes() == old  # the old file is left as it was


def test_the_bundled_pairs_keep_their_split_and_twins() -> None:
    pairs = load_pairs(BENCH / "data" / "classify_pairs.jsonl")
    assert len({p.id for p in pairs}) == len(pairs) >= 800
    assert all(p.split == "train" for p in pairs if p.twin)  # the second batch trains only
    assert sum(p.split == "validation" for p in pairs) == 188  # the first split never moved


def test_a_threshold_must_keep_precision_in_every_left_out_source() -> None:
    def row(t: float, en: float, ja: float) -> dict[str, float]:
        return {
            "threshold": t,
            "en_precision": en,
            "ja_precision": ja,
            "en_calls": 50.0,
            "ja_calls": 50.0,
        }

    thresholds = thresholds_mod.THRESHOLDS
    good = [row(t, 0.97 if t >= 0.6 else 0.9, 1.0) for t in thresholds]
    dip = [row(t, 0.97 if t >= 0.6 and abs(t - 0.8) > 1e-9 else 0.9, 0.96) for t in thresholds]
    chosen = thresholds_mod.choose_thresholds({"a": good, "b": dip}, 0.95, thresholds_mod.FOLD_RULE)
    assert chosen["en"] == 0.81  # 0.80 dips in source b: the lowest safe point is above it
    assert chosen["ja"] == thresholds[0]


def _own(
    row: dict[str, float], ruled: dict[str, tuple[float, float]] | None = None
) -> dict[str, float]:
    """A curve row with the judge's own counts: ``ruled`` (language → (calls, right) a deciding
    rule made) taken out of the counts, none by default."""
    out = dict(row)
    for lang in ("en", "ja"):
        calls, right = (ruled or {}).get(lang, (0.0, 0.0))
        n = row[f"{lang}_calls"] - calls
        k = row[f"{lang}_precision"] * row[f"{lang}_calls"] - right
        out[f"{lang}_own_calls"] = n
        out[f"{lang}_own_precision"] = k / n if n else 1.0
    return out


def test_a_deciding_rule_s_sure_closes_do_not_lower_the_judge_s_threshold() -> None:
    # 40 judge calls, 37 right (0.925) under 0.8; a rule's 40 sure closes lift the pool to 0.96
    thresholds = thresholds_mod.THRESHOLDS
    rows = [
        _own(
            {
                "threshold": t,
                "en_precision": 1.0 if t >= 0.8 else 77 / 80,
                "ja_precision": 1.0,
                "en_calls": 80.0,
                "ja_calls": 50.0,
            },
            {"en": (40.0, 40.0)},
        )
        for t in thresholds
    ]
    pooled = thresholds_mod.ThresholdRule(pool="pooled", cliff_margin=0)
    own = thresholds_mod.ThresholdRule(pool="pooled", cliff_margin=0, calls="own")
    assert pooled.choose({"a": rows}, 0.95)["en"] == thresholds[0]
    assert own.choose({"a": rows}, 0.95)["en"] == 0.8


def test_three_writers_in_four_must_keep_the_target() -> None:
    def writer(under: float) -> list[dict[str, float]]:  # under ``under``: 0.9 precision
        return [
            _own(
                {
                    "threshold": t,
                    "en_precision": 0.9 if t < under else 1.0,
                    "ja_precision": 1.0,
                    "en_calls": 40.0,
                    "ja_calls": 40.0,
                }
            )
            for t in thresholds_mod.THRESHOLDS
        ]

    rule = thresholds_mod.ThresholdRule(pool="quantile", quantile=0.25, calls="own", cliff_margin=0)
    # one writer of five falls under the target below 0.8: the quarter quantile holds there
    assert (
        rule.choose({"a": writer(0.8), **{k: writer(0.3) for k in "bcde"}}, 0.95)["en"]
        == thresholds_mod.THRESHOLDS[0]
    )
    # two of five: it does not, and the threshold is where the second one keeps it
    assert (
        rule.choose({"a": writer(0.8), "b": writer(0.7), **{k: writer(0.3) for k in "cde"}}, 0.95)[
            "en"
        ]
        == 0.7
    )


def test_a_sure_reading_that_takes_the_easy_closes_does_not_raise_the_threshold() -> None:
    # Four writers. Under 0.8 the judge's own calls are 0.925 right (37 of 40); on each writer
    # a sure reading closes 40 more pairs, all right, that the judge would have closed itself.
    # What ships there is 77 of 80 (0.9625): the threshold stays low; read off the judge's own
    # calls it would climb to 0.8 though no shipped close became less right.
    rows = [
        _own(
            {
                "threshold": t,
                "en_precision": 1.0 if t >= 0.8 else 77 / 80,
                "ja_precision": 1.0,
                "en_calls": 80.0,
                "ja_calls": 50.0,
            },
            {"en": (40.0, 40.0)},
        )
        for t in thresholds_mod.THRESHOLDS
    ]
    curves = {w: rows for w in "abcd"}
    assert thresholds_mod.RULE.calls == "all"
    # (the training rule: 308 of 320 pooled, a Wilson lower bound just over 0.95, then its margin)
    assert (
        thresholds_mod.choose_thresholds(curves, 0.95)["en"]
        == thresholds_mod.THRESHOLDS[thresholds_mod.RULE.margin]
    )
    own = thresholds_mod.ThresholdRule(pool="quantile", quantile=0.1, calls="own")
    assert own.choose(curves, 0.95)["en"] == 0.8


def test_nine_writers_in_ten_must_keep_the_target() -> None:
    def writer(under: float) -> list[dict[str, float]]:  # under ``under``: 0.9 precision
        return [
            _own(
                {
                    "threshold": t,
                    "en_precision": 0.9 if t < under else 1.0,
                    "ja_precision": 1.0,
                    "en_calls": 40.0,
                    "ja_calls": 40.0,
                }
            )
            for t in thresholds_mod.THRESHOLDS
        ]

    rule = thresholds_mod.ThresholdRule(pool="quantile", quantile=0.1)  # round 26's rule
    keep = {str(k): writer(0.3) for k in range(9)}
    # one writer of ten falls under the target below 0.8: the tenth quantile holds there
    assert rule.choose({"a": writer(0.8), **keep}, 0.95)["en"] == thresholds_mod.THRESHOLDS[0]
    # two of ten: it does not, and the threshold is where the second one keeps it (no cliff:
    # one step lower the measure is 0.9, not more than CLIFF under the target)
    two = {"a": writer(0.8), "b": writer(0.7), **dict(list(keep.items())[:8])}
    assert rule.choose(two, 0.95)["en"] == 0.7


def test_a_handful_of_calls_at_the_top_of_a_curve_does_not_set_the_threshold() -> None:
    # One false alarm among three calls is noise, not a precision the threshold can keep.
    few = thresholds_mod.MIN_CALLS - 1
    thresholds = thresholds_mod.THRESHOLDS
    # (below 0.9 every call is right: a precision every rule keeps, Wilson's lower bound too)
    rows = [
        _own(
            {
                "threshold": t,
                "en_precision": 1.0 if t < 0.9 else 0.67,
                "ja_precision": 1.0,
                "en_calls": 50.0 if t < 0.9 else float(few),
                "ja_calls": 50.0,
            }
        )
        for t in thresholds
    ]
    for rule in (thresholds_mod.FOLD_RULE, thresholds_mod.RULE):  # (RULE: its margin above)
        assert (
            thresholds_mod.choose_thresholds({"a": rows}, 0.95, rule)["en"]
            == thresholds[rule.margin]
        )


def test_a_configuration_that_keeps_precision_beats_a_better_f1_that_does_not() -> None:
    def result(f1: float, cp: float) -> dict[str, object]:
        per = {"en_cp": cp, "en_calls": 50, "ja_cp": 0.99, "ja_calls": 50}
        other = {"en_cp": 0.99, "en_calls": 50, "ja_cp": 0.99, "ja_calls": 50}
        return {"cross": {"a": per, "b": other}, "cross_f1": f1}

    safe, risky = result(0.80, 0.93), result(0.85, 0.88)
    assert thresholds_mod.keeps_precision(safe, 0.95)  # pooled (46 + 50) / 100
    assert not thresholds_mod.keeps_precision(risky, 0.95)  # pooled (44 + 50) / 100
    assert thresholds_mod.pick_best([risky, safe], 0.95) is safe
    assert thresholds_mod.pick_best([safe, result(0.82, 0.97)], 0.95)["cross_f1"] == 0.82


def test_one_source_far_under_the_target_fails_precision_even_when_the_pool_keeps_it() -> None:
    many = {"en_cp": 1.0, "en_calls": 500, "ja_cp": 1.0, "ja_calls": 50}
    far = {"en_cp": 0.8, "en_calls": 20, "ja_cp": 1.0, "ja_calls": 50}
    assert not thresholds_mod.keeps_precision({"cross": {"a": many, "b": far}}, 0.95)
    few = {**far, "en_calls": thresholds_mod.MIN_CALLS - 5}
    assert thresholds_mod.keeps_precision({"cross": {"a": many, "b": few}}, 0.95)


def test_a_threshold_on_a_cliff_is_raised_by_the_margin() -> None:
    def row(t: float, en: float, calls: float = 50.0) -> dict[str, float]:
        return _own(
            {
                "threshold": t,
                "en_precision": en,
                "ja_precision": 1.0,
                "en_calls": calls,
                "ja_calls": 50.0,
            }
        )

    thresholds = thresholds_mod.THRESHOLDS
    # from 0.7 every call is right (a precision every rule keeps, Wilson's lower bound too);
    # under it a little under the target, no cliff for any rule
    gentle = [row(t, 1.0 if t >= 0.7 else 0.945, 400.0) for t in thresholds]
    cliff = [row(t, 0.96 if t >= 0.7 else 0.6) for t in thresholds]
    assert (
        thresholds_mod.choose_thresholds({"a": gentle}, 0.95, thresholds_mod.FOLD_RULE)["en"] == 0.7
    )
    # the training rule adds its margin whatever the curve
    assert thresholds_mod.choose_thresholds({"a": gentle}, 0.95)["en"] == round(
        0.7 + 0.01 * thresholds_mod.RULE.margin, 2
    )
    raised = thresholds_mod.choose_thresholds(
        {"a": gentle, "b": cliff}, 0.95, thresholds_mod.FOLD_RULE
    )["en"]
    assert raised == round(0.7 + 0.01 * thresholds_mod.MARGIN, 2)


def test_a_several_sentence_new_memory_is_never_called_contradictory_in_training(
    tmp_path: Path,
) -> None:
    # As the run-time guard (offline.one_statement): neither a sure CONTRADICTORY rule nor a
    # confident model closes anything for a new memory of several sentences.
    rows = [
        {**ROWS[0], "id": "one"},
        {**ROWS[0], "id": "two", "new": "User moved to York. User loves the walls."},
    ]
    data = cdata.load_data({"pairs": _write(tmp_path / "p.jsonl", rows)}, None)
    assert data.several.tolist() == [False, True]
    contra = cdata.CONTRA
    probs = np.array([[0.0, 0.0, 1.0], [0.1, 0.0, 0.9]])
    ruled = np.array([False, True])
    data = cdata.Data(**{**vars(data), "rule_says": np.array([contra, contra])})
    pred = loso.predictions(data, probs, ruled, {"en": 0.5, "ja": 0.5})
    assert pred.tolist() == [contra, 0]  # the second: the likelier of the other two
    curve = thresholds_mod.curve(data, probs, ruled)
    assert all(row["all_calls"] == 1 for row in curve)


def test_a_set_without_several_sentence_rows_loads_with_no_sentence_rows(tmp_path: Path) -> None:
    """Session 30: data_of of no pairs (the sentence rows of such a set) raised IndexError."""
    for embedder in (None, HashEmbedder()):
        data = cdata.load_data({"pairs": _write(tmp_path / "p.jsonl", [ROWS[0]])}, embedder)
        assert data.several.tolist() == [False]
        assert data.sentences is not None and len(data.sentences.y) == 0
        assert data.sentences.x.shape == (0, data.x.shape[1])
        assert all(block.shape[0] == 0 for block in data.sentences.blocks)


def test_a_sentence_threshold_needs_evidence_not_only_a_clean_record() -> None:
    # 13 right calls of 13 at the top of the grid do not show precision ≥ 0.95 with 95%
    # confidence; 80 of 80 do.
    from _classify_sentences import SENTENCE_Z, choose_sentence_threshold
    from lib.metrics import wilson_lower

    assert wilson_lower(13, 13, SENTENCE_Z) < 0.95 < wilson_lower(80, 80, SENTENCE_Z)
    contra, thresholds = 2, (0.4, 0.99)  # at 0.4 the five wrong calls count too
    for right, expected in ((13, float("inf")), (80, 0.99)):
        score = np.array([0.995] * right + [0.5] * 5)
        y = np.array([contra] * right + [0] * 5)
        sources = np.array(["notes1"] * (right + 5))
        chosen, curve = choose_sentence_threshold(score, y, sources, contra, thresholds, 0.95)
        assert chosen == expected
        assert curve[-1]["pooled_lower"] == round(wilson_lower(right, right, SENTENCE_Z), 4)


def _rows(en: list[tuple[float, float]]) -> list[dict[str, float]]:
    """A curve whose EN precision / calls at each threshold are ``en(t)``; JA always clean."""
    return [
        {"threshold": t, "en_precision": p, "en_calls": c, "ja_precision": 1.0, "ja_calls": 50.0}
        for t, (p, c) in zip(thresholds_mod.THRESHOLDS, en, strict=True)
    ]


def test_the_pooled_rule_counts_every_source_s_calls_together() -> None:
    # Source b dips to 0.9 on 10 calls below 0.8 while a keeps 1.0 on 90: pooled 0.99.
    ts = thresholds_mod.THRESHOLDS
    a = _rows([(1.0, 90.0) for _ in ts])
    b = _rows([(0.9 if t < 0.8 else 1.0, 10.0) for t in ts])
    fold = thresholds_mod.ThresholdRule()
    pooled = thresholds_mod.ThresholdRule(pool="pooled")
    assert fold.choose({"a": a, "b": b}, 0.95)["en"] == 0.8
    assert pooled.choose({"a": a, "b": b}, 0.95)["en"] == ts[0]


def test_the_wilson_rule_asks_for_evidence_as_well_as_a_clean_record() -> None:
    # 20 of 20 right is a clean record but a Wilson lower bound of about 0.84; 200 of 200 is 0.98.
    ts = thresholds_mod.THRESHOLDS
    wilson = thresholds_mod.ThresholdRule(pool="wilson", cliff_margin=0)
    few = _rows([(1.0 if t >= 0.9 else 0.8, 20.0) for t in ts])
    many = _rows([(1.0 if t >= 0.9 else 0.8, 200.0) for t in ts])
    pooled = thresholds_mod.ThresholdRule(pool="pooled", cliff_margin=0)
    assert pooled.choose({"a": few}, 0.95)["en"] == 0.9
    assert wilson.choose({"a": few}, 0.95)["en"] == ts[-1]
    assert wilson.choose({"a": many}, 0.95)["en"] == 0.9


def test_the_training_rule_is_the_quarter_quantile_of_the_writers() -> None:
    # Chosen on fresh writers (round 28, ``bench/classify_split.py``): the lowest threshold
    # from which three left-out writers in four keep precision over every close that ships.
    rule = thresholds_mod.RULE
    assert (rule.pool, rule.quantile, rule.calls) == ("quantile", 0.25, "all")


def test_the_wilson_rule_pools_the_writers_and_reads_the_lower_bound() -> None:
    # Round 27's rule, kept as a candidate: the writers' closes pooled, read through the lower
    # end of their Wilson interval at z = 1, one step of margin.
    ts = thresholds_mod.THRESHOLDS
    wilson = thresholds_mod.ThresholdRule(pool="wilson", z=1.0, margin=1)
    # under 0.8 three writers make 40 calls each, 38 right (pooled 0.95, a bound of 0.926: it
    # fails, but less than CLIFF under the target); from 0.8 all right (120 of 120, 0.99)
    writers = {w: _rows([(1.0 if t >= 0.8 else 0.95, 40.0) for t in ts]) for w in "abc"}
    assert thresholds_mod.choose_thresholds(writers, 0.95, wilson)["en"] == 0.81
    # a writer that falls to 0.9 on its own 40 calls is outvoted by 900 calls at 0.99 elsewhere
    # (pooled 0.986, bound 0.982): the fold rule would have stopped at 0.8
    many = {w: _rows([(0.99, 100.0) for _ in ts]) for w in "defghijkl"}
    dip = _rows([(1.0 if t >= 0.8 else 0.9, 40.0) for t in ts])
    assert thresholds_mod.choose_thresholds({"z": dip, **many}, 0.95, wilson)["en"] == ts[1]
    assert thresholds_mod.FOLD_RULE.choose({"z": dip, **many}, 0.95)["en"] == 0.8


def test_a_margin_raises_the_threshold_whatever_the_curve() -> None:
    ts = thresholds_mod.THRESHOLDS
    rows = _rows([(1.0 if t >= 0.7 else 0.94, 50.0) for t in ts])
    assert thresholds_mod.ThresholdRule(margin=2).choose({"a": rows}, 0.95)["en"] == 0.72
    assert thresholds_mod.ThresholdRule(margin=99).choose({"a": rows}, 0.95)["en"] == ts[-1]


def test_a_source_that_calls_nothing_contradictory_keeps_precision() -> None:
    quiet = {"en_cp": 0.0, "en_calls": 0, "ja_cp": 1.0, "ja_calls": 12}
    wrong = {"en_cp": 0.0, "en_calls": 2, "ja_cp": 1.0, "ja_calls": 12}
    assert thresholds_mod.keeps_precision({"cross": {"a": quiet}}, 0.95)
    assert not thresholds_mod.keeps_precision({"cross": {"a": wrong}}, 0.95)


def _split_result(
    rule: str, target: float | None, f1: float, en: float, ja: float
) -> dict[str, object]:
    return {
        "rule": rule,
        "target": target,
        "thresholds": {"en": 0.9, "ja": 0.8},
        "f1": f1,
        "en": {"precision": en, "recall": 0.5, "calls": 100, "false": 0},
        "ja": {"precision": ja, "recall": 0.5, "calls": 100, "false": 0},
    }


def test_the_split_winner_keeps_precision_on_the_fresh_writers_then_f1() -> None:
    report = {
        "rules": [
            _split_result("keeps", 0.95, 0.77, 0.956, 0.963),
            _split_result("safer", 0.95, 0.75, 0.99, 0.99),
            _split_result("falls in Japanese", 0.95, 0.78, 0.96, 0.937),
            _split_result("aimed lower", 0.90, 0.79, 0.96, 0.96),  # keeps 0.95 by luck: not a rival
            _split_result("stored judge", None, 0.80, 0.99, 0.99),
        ]
    }
    assert classify_split.winner(report, 0.95)["rule"] == "keeps"
    assert classify_split.winner({"rules": report["rules"][2:]}, 0.95) is None


def test_the_split_reads_the_fresh_notes_as_statements_and_fits_on_none_of_them() -> None:
    sources, scored = classify_split.sources_of(("holdout38", "notes18"))
    assert scored == ["holdout38", "notes18" + classify_split.AS_STATEMENTS]
    assert "notes18" not in sources and scored[1] in sources  # one reading, under another name
    assert scored[1] not in cdata.NOTES  # so ``load_data`` reads it as statements
    assert "holdout38" in sources and "notes17" in sources


def test_a_dedup_file_gives_its_duplicate_pairs_as_extendable_and_nothing_else(
    tmp_path: Path,
) -> None:
    rows = [
        {
            "id": "d1",
            "a": "User likes tea.",
            "b": "Tea is what the user likes.",
            "label": "duplicate",
            "lang": "en",
            "shape": "word_order",
            "split": "s",
        },
        {
            "id": "d2",
            "a": "User has two cats.",
            "b": "User has three cats.",
            "label": "different",
            "lang": "en",
            "shape": "number",
            "split": "s",
        },
    ]
    (pair,) = load_pairs(_write(tmp_path / "dedup_x.jsonl", rows))
    assert (pair.old, pair.new, pair.label, pair.kind) == (
        "User likes tea.",
        "Tea is what the user likes.",
        "EXTENDABLE",
        "word_order",
    )


def test_distractors_are_the_other_pairs_old_memories_in_the_band_labelled_independent(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import _classify_extra as extra

    monkeypatch.setattr(extra, "band_raw", lambda embedder: -1.0)  # every memory in the band
    pairs = [
        Pair("a", "en", "User works at a bank.", "User quit the bank.", "CONTRADICTORY", "easy"),
        Pair(
            "b",
            "en",
            "User's sister works at a shop.",
            "User's sister got a cat.",
            "INDEPENDENT",
            "easy",
        ),
        Pair(
            "c",
            "en",
            "User works at a bank.",
            "User quit. User rests now.",
            "CONTRADICTORY",
            "easy",
        ),
        Pair(
            "d",
            "ja",
            "ユーザーは銀行で働いている",
            "ユーザーは銀行を辞めた",
            "CONTRADICTORY",
            "easy",
        ),
    ]
    rows, parents = extra.distractor_pairs(pairs, ["s"] * 4, HashEmbedder(), per_memory=2)
    # "a": the one other old memory of its set and language (its own, said twice, is not one);
    # "b": the bank memory; "c" has several sentences (it never closes as a whole): none;
    # "d": alone in its language.
    assert [(parents[i], r.old) for i, r in enumerate(rows)] == [
        (0, "User's sister works at a shop."),
        (1, "User works at a bank."),
    ]
    assert {r.label for r in rows} == {"INDEPENDENT"} and rows[0].new == pairs[0].new
    assert extra.distractor_pairs(pairs, ["s"] * 4, HashEmbedder(), per_memory=0) == ([], [])


def test_an_extra_row_is_fitted_on_only_with_its_pair_or_in_every_fold() -> None:
    data = cdata.Data(
        names=(),
        x=np.zeros((3, 0)),
        blocks=[],
        y=np.zeros(3, dtype=int),
        langs=np.array(["en"] * 3),
        sources=np.array(["a", "b", "b"]),
        groups=np.zeros(3),
        rules=[""] * 3,
        rule_says=np.zeros(3),
        forced=np.zeros(3, dtype=bool),
        several=np.zeros(3, dtype=bool),
        note=np.zeros(3, dtype=bool),
        extra_parent=np.array([0, 1, 2, -1]),
        extra_weight=np.full(4, 0.5),
    )
    data = cdata.Data(**{**vars(data), "extra": data})  # any Data stands for the rows
    # Source "a" left out: its pair's distractor is not fitted on; a dedup row always is.
    assert loso._extra_rows(data, np.array([1, 2])).tolist() == [1, 2, 3]
    assert loso._extra_rows(data, np.array([0])).tolist() == [0, 3]


def test_the_training_command_defaults_to_the_shipped_head_and_extra_rows() -> None:
    import _classify_extra as extra
    import train_classifier

    args = train_classifier.arguments().parse_args([])
    assert args.head == "net" and extra.extra_flags(args) == ""
    assert extra.extra_of(args) == extra.Extra(extra.DISTRACTORS, extra.DISTRACTOR_WEIGHT)
    every = train_classifier.arguments().parse_args(["--duplicates"])  # no file: every seen set
    assert extra.extra_of(every).duplicates == extra.DEDUP_SOURCES
    assert all(path.is_file() for path in extra.DEDUP_SOURCES)
    assert extra.extra_flags(every) == " --duplicates"
    judge = json.loads(
        (BENCH.parent / "src" / "omoide" / "engine" / "classify" / "judge.json").read_text(
            encoding="utf-8"
        )
    )
    e5 = next(m for m in judge["models"] if m["embedder"].startswith("multilingual-e5"))
    # the shipped e5 judge is the net, ``--head``'s default (one per language since session 39)
    assert all("hidden" in model for model in e5.get("languages", {"": e5}).values())


def test_a_distractor_is_fitted_on_as_not_contradictory_half_extendable_half_independent(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import _classify_extra as extra

    monkeypatch.setattr(extra, "band_raw", lambda embedder: -1.0)
    rows = [
        {**ROWS[0], "id": "a"},
        {
            **ROWS[0],
            "id": "b",
            "old": "User's sister lives in Bath.",
            "new": "User's sister got a cat.",
            "label": "INDEPENDENT",
        },
        {
            **ROWS[0],
            "id": "c",
            "old": "User rides a bike.",  # several sentences: none
            "new": "User sold the bike. User walks now.",
            "label": "CONTRADICTORY",
        },
    ]
    data = cdata.load_data(
        {"pairs": _write(tmp_path / "p.jsonl", rows)},
        HashEmbedder(),
        extra.Extra(distractors=1, distractor_weight=0.4),
    )
    assert data.extra is not None and data.extra_weight is not None
    names = [cdata.CLASSES[k].value for k in data.extra.y]
    assert names == ["INDEPENDENT", "INDEPENDENT", "EXTENDABLE", "EXTENDABLE"]
    assert data.extra_parent.tolist() == [0, 1, 0, 1]
    assert np.allclose(data.extra_weight, 0.2)  # half the weight on each reading


def test_confusions_cost_is_the_macro_f1_given_back() -> None:
    import classify_confusions as confusions

    def said(pair_id: str, gold: str, label: str, split: str) -> classify.Prediction:
        pair = Pair(pair_id, "en", "old", "new", gold, "easy", split=split)
        return classify.Prediction(pair, label, 0.5, "judge (I=0.5); rule said unrelated")

    preds = [
        said("a", "CONTRADICTORY", "CONTRADICTORY", "s1"),
        said("b", "EXTENDABLE", "INDEPENDENT", "s1"),
        said("c", "INDEPENDENT", "INDEPENDENT", "s1"),
        said("d", "CONTRADICTORY", "CONTRADICTORY", "s2"),
        said("e", "EXTENDABLE", "EXTENDABLE", "s2"),
        said("f", "INDEPENDENT", "INDEPENDENT", "s2"),
    ]
    report = confusions.summarise(preds, top=2)
    assert report["sets"] == 2
    cell = report["confusions"]["E->I"]
    assert cell["count"] == 1 and cell["readings"] == [("unrelated", 1)]
    assert report["mean_macro_f1"] + cell["cost"] == pytest.approx(1.0, abs=1e-3)
    assert report["confusions"]["C->E"] == {"count": 0, "cost": 0.0, "readings": []}


def test_training_reads_a_new_memory_about_a_thing_the_old_names_as_extendable(
    tmp_path: Path,
) -> None:
    """Session 32: the LOSO verdicts turn the model's INDEPENDENT into EXTENDABLE where the new
    memory is about a thing the old one names (``learned.extends``), as the server does; a
    close is left alone."""
    old = "The user has a parrot called Pepper."
    rows = [
        {**ROWS[1], "id": "named", "old": old, "new": "Pepper says hello to everyone."},
        {**ROWS[1], "id": "alone", "old": old, "new": "The user's neighbour keeps pigeons."},
        {**ROWS[1], "id": "close", "old": old, "new": "Pepper says hello to everyone."},
    ]
    data = cdata.load_data({"pairs": _write(tmp_path / "p.jsonl", rows)}, None)
    assert data.extends.tolist() == [True, False, True]
    assert "new_subject_named" not in cdata.FEATURE_SETS["rules+slots+scope+subject+align"]
    independent, extendable = (
        cdata.CLASSES.index(r)
        for r in (classify.Relation.INDEPENDENT, classify.Relation.EXTENDABLE)
    )
    probs = np.array([[0.8, 0.1, 0.1], [0.8, 0.1, 0.1], [0.0, 0.05, 0.95]])
    pred = loso.predictions(data, probs, np.zeros(3, dtype=bool), {"en": 0.9, "ja": 0.9})
    assert pred.tolist() == [extendable, independent, cdata.CONTRA]
