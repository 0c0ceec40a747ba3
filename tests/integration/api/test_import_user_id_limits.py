"""A mem0 import's ``user_id`` is refused alike over HTTP and by ``omoide import``: longer than
:data:`MAX_USER_ID_CHARS`, or empty, in the length refusal's one wording. Before, only HTTP
bounded it (a literal 200 in the route): the CLI read a 201-character or an empty user_id as a
filter that matched nothing, and said the file held no memory of that user. The CLI names
the option as typed (``--user-id must …``), as it names ``--user-name``."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from omoide_testing import LiveServer

from omoide.cli import main
from omoide.service.validate import MAX_USER_ID_CHARS

FILE = '[{"id": "m1", "memory": "The user keeps bees.", "user_id": "u1"}]'
CASES = [
    pytest.param(
        "u" * (MAX_USER_ID_CHARS + 1),
        f"user_id must be at most {MAX_USER_ID_CHARS} characters, got {MAX_USER_ID_CHARS + 1}",
        id="too-long",
    ),
    pytest.param("", 'user_id must not be empty, got ""', id="empty"),
]


@pytest.mark.parametrize(("user_id", "said"), CASES)
def test_the_cli_refuses_a_user_id_as_http_does(
    server: LiveServer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    user_id: str,
    said: str,
) -> None:
    key = server.create_persona("rin")
    with server.client(key) as rin:
        reply = rin.post(
            "/api/import/rin",
            params={"source": "mem0", "user_id": user_id},
            content=FILE.encode(),
        )
    assert reply.status_code == 422, reply.text
    assert said in reply.json()["error"]["message"], reply.text

    monkeypatch.setenv("OMOIDE_DATA", str(tmp_path / "cli"))
    monkeypatch.setenv("OMOIDE_EMBEDDER", "hash")
    monkeypatch.delenv("OMOIDE_DATABASE_URL", raising=False)
    assert CliRunner().invoke(main, ["persona", "create", "rin"]).exit_code == 0
    file = tmp_path / "mem0.json"
    file.write_text(FILE, encoding="utf-8")
    done = CliRunner().invoke(
        main, ["import", "-p", "rin", "--from", "mem0", "--user-id", user_id, str(file)]
    )
    # the rule in HTTP's words, naming the option typed as it is read (session 45)
    assert done.exit_code == 2, done.output
    rule = said.removeprefix("user_id ")
    assert done.output.splitlines()[-1] == f"Error: Invalid value for '--user-id': {rule}"
