"""extract_json: finds the JSON a model wrapped in fences, prose or a reasoning block."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from omoide.llm import LLMOutputError
from omoide.llm.jsonx import extract_json

# Text Omoide can store: no NUL (extract_json reads it as U+FFFD, tested below).
texts = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"))
json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | texts,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(texts, inner, max_size=4),
    max_leaves=20,
)
json_objects = st.dictionaries(texts, json_values, max_size=5)
# Prose a model might write around its answer: anything but JSON openers, fences and tags.
prose = st.text(st.characters(blacklist_characters='{}[]`<"', codec="utf-8"), max_size=40)
dumps_options = st.fixed_dictionaries(
    {"ensure_ascii": st.booleans(), "indent": st.none() | st.integers(0, 4)}
)


@settings(max_examples=50)
@given(value=json_objects, before=prose, after=prose, options=dumps_options)
def test_extract_json_round_trips_an_object_in_a_fence_between_prose(value, before, after, options):
    text = f"{before}\n```json\n{json.dumps(value, **options)}\n```\n{after}"

    assert extract_json(text) == value


@settings(max_examples=50)
@given(value=json_objects, before=prose, after=prose, options=dumps_options)
def test_extract_json_round_trips_an_object_embedded_in_prose(value, before, after, options):
    assert extract_json(f"{before} {json.dumps(value, **options)} {after}") == value


@settings(max_examples=50)
@given(value=st.lists(json_values, max_size=5), before=prose, after=prose)
def test_extract_json_round_trips_an_array_embedded_in_prose(value, before, after):
    assert extract_json(f"{before}{json.dumps(value, ensure_ascii=False)}{after}") == value


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param('{"a": 1}', {"a": 1}, id="bare-object"),
        pytest.param("  [1, 2]\n", [1, 2], id="bare-array"),
        pytest.param('```\n{"a": 1}\n```', {"a": 1}, id="fence-without-language"),
        pytest.param('```JSON {"a": 1}```', {"a": 1}, id="fence-on-one-line"),
        pytest.param(
            'See [1] and [2]. {"verdicts": [1, 2, 3]}',
            {"verdicts": [1, 2, 3]},
            id="citation-before-answer-loses-to-longer-json",
        ),
        pytest.param('<think>maybe {"a": 0}?</think>\n{"a": 1}', {"a": 1}, id="think-block"),
        pytest.param(
            '{"note": "<think>inside</think>"}',
            {"note": "<think>inside</think>"},
            id="think-tag-inside-a-string",
        ),
        pytest.param('{"t": "```"} trailing', {"t": "```"}, id="fence-marker-in-a-string"),
        pytest.param('{"a": {"b": "}{"}} and {"c": 2}', {"a": {"b": "}{"}}, id="braces-in-strings"),
        pytest.param('{"name": "らうらう"}です', {"name": "らうらう"}, id="japanese-suffix"),
        pytest.param("null", None, id="json-null"),
    ],
)
def test_extract_json_finds_the_answer(text, expected):
    assert extract_json(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("", id="empty"),
        pytest.param("The user moved to Sendai.", id="prose"),
        pytest.param('{"a": 1,', id="truncated"),
        pytest.param('<think>still thinking {"a": 1}', id="unclosed-think"),
        pytest.param("```json\n{oops}\n```", id="broken-fence"),
    ],
)
def test_extract_json_raises_llm_output_error_without_quoting_the_answer(text):
    with pytest.raises(LLMOutputError) as caught:
        extract_json(text)

    assert caught.value.message == (
        f"no JSON object or array found in the model's answer ({len(text)} characters)"
    )
    assert caught.value.code == "llm_bad_output"


def test_a_lone_surrogate_or_nul_in_the_found_json_is_replaced() -> None:
    """A note or verdict holding one could not be stored (session 36)."""
    assert extract_json('Here: {"a": "x\\u0000y"}') == {"a": "x\ufffdy"}
    assert extract_json('```json\n{"content": "cat \\ud83d"}\n```') == {"content": "cat \ufffd"}
