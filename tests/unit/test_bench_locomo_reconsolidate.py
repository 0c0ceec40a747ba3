"""The LoCoMo re-consolidation probe (``bench/locomo_reconsolidate.py``) and the consolidation
benchmark's sentence option: which consolidator variant a command line builds."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"
if str(BENCH) not in sys.path:
    sys.path.insert(0, str(BENCH))  # scripts run as `python bench/x.py` import `lib.*`

import consolidate as consolidate_bench  # noqa: E402
import locomo_reconsolidate as probe  # noqa: E402
from omoide.engine.consolidate import OfflineConsolidator  # noqa: E402


def test_no_param_is_the_default_consolidator() -> None:
    assert probe.consolidator([]) == OfflineConsolidator()


def test_params_set_their_fields_with_the_field_type() -> None:
    made = probe.consolidator(["max_sentences_per_note=2", "notes_per_turn=0.9"])
    assert made == OfflineConsolidator(max_sentences_per_note=2, notes_per_turn=0.9)
    assert isinstance(made.max_sentences_per_note, int)


def test_an_unknown_field_names_the_known_ones() -> None:
    with pytest.raises(SystemExit, match="max_sentences_per_note"):
        probe.consolidator(["sentences=2"])


def test_the_benchmark_command_records_a_non_default_sentence_limit() -> None:
    data = consolidate_bench.DEFAULT_LOCOMO_DIR
    assert "--max-sentences" not in consolidate_bench._command(data, 0.5, "")
    assert consolidate_bench._command(data, 0.5, "26", 2).endswith(
        "--conversations 26 --max-sentences-per-note 2"
    )
