"""A persona setting's server default from its OMOIDE_<NAME> variable, read as docs/settings.md
says and seen where a user sees it, GET /api/settings over real HTTP: an empty variable counts
as unset (as every process variable and OMOIDE_LLM_* do), and a boolean's text may have spaces
around it, an ideographic one included, as a number's may."""

from __future__ import annotations

from pathlib import Path

import pytest
from omoide_testing import live_server

from omoide.config import Settings
from omoide.embed.hashing import HashEmbedder
from omoide.errors import InvalidInput


def _defaults(tmp_path: Path, environ: dict[str, str]) -> dict[str, object]:
    with live_server(tmp_path, HashEmbedder(), "omo_admin_env-text-test", environ) as server:
        server.create_persona("rin")
        with server.admin() as client:
            reply = client.get("/api/settings/rin")
    assert reply.status_code == 200, reply.text
    return dict(reply.json()["settings"])


def test_an_empty_variable_counts_as_unset(tmp_path: Path) -> None:
    """OMOIDE_CONTEXT_BUDGET_TOKENS= (a compose file's ${UNSET}) stopped every command:
    'must be an integer written with the digits 0-9 …, got ""'."""
    environ = {"OMOIDE_CONTEXT_BUDGET_TOKENS": "", "OMOIDE_TIMEZONE": "", "OMOIDE_CLASSIFIER": ""}
    settings = _defaults(tmp_path, environ)
    assert settings["context_budget_tokens"] == 2000
    assert settings["timezone"] == "UTC" and settings["classifier"] == "auto"


@pytest.mark.parametrize(
    ("text", "value"), [(" on ", True), ("\u3000ｔｒｕｅ\u3000", True), (" 0", False)]
)
def test_a_boolean_with_spaces_around_it_is_read(tmp_path: Path, text: str, value: bool) -> None:
    """docs/settings.md: 'ｔｒｕｅ is true, an ideographic space around it is ignored'; a
    boolean with any space around it was refused ('must be true or false, got " on "')."""
    settings = _defaults(tmp_path, {"OMOIDE_CONTEXT_INCLUDE_BLOCKS": text})
    assert settings["context_include_blocks"] is value


def test_other_text_is_still_refused_naming_the_variable() -> None:
    with pytest.raises(
        InvalidInput, match='OMOIDE_CONTEXT_INCLUDE_BLOCKS must be true or false, got " maybe "'
    ):
        Settings.from_env({"OMOIDE_CONTEXT_INCLUDE_BLOCKS": " maybe "})
