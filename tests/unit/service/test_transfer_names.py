"""An import's merge waits for the memories a record names (``transfer.records.named_keys``);
the keys it reads are the ones ``remap_memory`` passes on, both from ``MEMORY_POINTERS``
(session 30: the two restated the pointer fields each)."""

from __future__ import annotations

from typing import Any

from omoide.engine.transfer_format import MEMORY_POINTERS, remap_memory
from omoide.service.transfer.records import named_keys


def _record() -> dict[str, Any]:
    image = {name: f"mem_{name}_v" for name in MEMORY_POINTERS}
    return {
        "key": "mem_self",
        **{name: f"mem_{name}" for name in MEMORY_POINTERS},
        "source_ref": None,
        "metadata": {"remainder_of": "mem_whole"},
        "versions": [{"cause": "mem_cause", "before": image, "after": None}],
    }


def test_the_keys_a_merge_waits_for_are_the_ones_remap_passes_on() -> None:
    record = _record()
    named = named_keys(record)
    moved = remap_memory(record, {key: key + "_moved" for key in named})
    assert named == {
        "mem_superseded_by",
        "mem_summary_ref",
        "mem_whole",
        "mem_cause",
        "mem_superseded_by_v",
        "mem_summary_ref_v",
    }
    # every key named_keys reads is one remap_memory moves, in the record and its version image
    assert all(moved[name].endswith("_moved") for name in MEMORY_POINTERS)
    assert all(moved["versions"][0]["before"][name].endswith("_moved") for name in MEMORY_POINTERS)
    assert moved["metadata"]["remainder_of"] == "mem_whole_moved"
    assert moved["versions"][0]["cause"] == "mem_cause_moved"
