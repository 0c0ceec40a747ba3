"""``scrub_pending`` is said in one wording (``model.SCRUB_PENDING_MEANS``) to every reader: the
HTTP schema's description of the field, the dashboard's notice after a purge, MCP's text and
the CLI's lines (tests/integration/test_server_stop_scrub.py, test_cli_erase_scrub.py), each
adding who scrubs the files next. Before: three wordings of the same state ("its text is gone
from every read, but still …", "the erase is committed and no read finds the text, but …",
"No read finds it any more, but its text …")."""

from __future__ import annotations

from markupsafe import escape
from omoide_testing import LiveServer

from omoide.cli_common import SCRUB_PENDING
from omoide.model import SCRUB_PENDING_MEANS


def test_the_http_schema_and_the_dashboard_say_scrub_pending_in_the_one_wording(
    server: LiveServer,
) -> None:
    with server.client() as anyone:
        schemas = anyone.get("/openapi.json").json()["components"]["schemas"]
    said = {
        name: schema["properties"]["scrub_pending"]["description"]
        for name, schema in schemas.items()
        if "scrub_pending" in schema.get("properties", {})
    }
    assert len(said) >= 3  # a memory's purge, a session's erase, a persona's
    assert all(f"committed and {SCRUB_PENDING_MEANS};" in text for text in said.values()), said
    key = server.create_persona("rin")
    with server.signed_in(key) as page:
        shown = page.get("/p/rin/memories", params={"purged": "mem_1", "scrub": "pending"})
        assert shown.status_code == 200
        assert f"{escape(SCRUB_PENDING_MEANS)}; the server scrubs them as soon as it can." in (
            shown.text
        )
    assert SCRUB_PENDING.startswith(f"{SCRUB_PENDING_MEANS}, and this command could not wait")
