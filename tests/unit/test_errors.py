"""The error hierarchy and the one error body (``omoide.errors``)."""

from __future__ import annotations

import pytest

from omoide.errors import (
    InvalidInput,
    LLMOutputError,
    OmoideError,
    UpstreamUnavailable,
    error_body,
)
from omoide.llm import LLMOutputError as LLMOutputErrorFromLLM


def test_error_body_is_the_one_shape_and_leaves_out_empty_fields() -> None:
    assert error_body("not_found", "no memory 'k'", key="k", persona=None) == {
        "error": {"code": "not_found", "message": "no memory 'k'", "key": "k"}
    }


def test_an_omoide_error_renders_through_error_body() -> None:
    exc = InvalidInput("importance must be within [0, 1]", field="importance")
    assert exc.to_dict() == error_body(
        "invalid_input", "importance must be within [0, 1]", field="importance"
    )


def test_llm_output_error_is_an_upstream_failure_in_the_hierarchy() -> None:
    assert LLMOutputErrorFromLLM is LLMOutputError
    exc = LLMOutputError("no JSON in the answer")
    assert isinstance(exc, UpstreamUnavailable) and isinstance(exc, OmoideError)
    assert (exc.status, exc.code) == (502, "llm_bad_output")
    with pytest.raises(UpstreamUnavailable):
        raise exc
