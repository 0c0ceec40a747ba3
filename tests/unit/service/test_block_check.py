"""An import's block record and a write through the API are checked by one rule and say one
message (session 12 review mend: blocks.check_block repeated the token-fit message)."""

from __future__ import annotations

import pytest

from omoide.engine.tokens import estimate_tokens
from omoide.errors import InvalidInput
from omoide.service.blocks import check_block

RECORD = {
    "block_name": "b1",
    "content": "word " * 40,
    "block_type": "custom",
    "max_tokens": 5,
    "priority": 0,
    "metadata": {},
}


def test_an_import_block_over_its_tokens_says_what_a_write_says() -> None:
    tokens = estimate_tokens(RECORD["content"])
    with pytest.raises(InvalidInput) as caught:
        check_block(RECORD)
    assert caught.value.message == (
        f"block 'b1': content is about {tokens:,} tokens, over its max_tokens of 5; shorten "
        "it or raise max_tokens"
    )
    assert caught.value.fields == {
        "field": "content",
        "block_name": "b1",
        "tokens": tokens,
        "max_tokens": 5,
    }


def test_a_block_record_that_fits_is_the_write_it_restores() -> None:
    patch = check_block({**RECORD, "max_tokens": 1000, "priority": 7, "block_type": "user"})
    assert (patch.block_name, patch.max_tokens, patch.priority, patch.block_type) == (
        "b1",
        1000,
        7,
        "user",
    )
    with pytest.raises(InvalidInput, match="block_type"):
        check_block({**RECORD, "block_type": "weird"})
