"""A local sentence-transformers model folder: ``OMOIDE_EMBEDDER=sentence-transformers:<path>``.

Needs the optional extra (``pip install 'omoide[st]'``). The folder is loaded with
``local_files_only`` and the Hugging Face hub switched to offline for the load, so nothing is
ever downloaded: a folder that is not a complete model fails at start-up with the library's
own words. The model id is ``st:<folder name>``; its calibration is the one ``omoide
calibrate`` stored for the data folder. Queries and passages are embedded alike; a model that
declares ``query``/``passage`` prompts (``config_sentence_transformers.json``) gets them.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from omoide.embed.base import normalise
from omoide.engine.calibration import IDENTITY, Calibration
from omoide.errors import InvalidInput

__all__ = ["SentenceTransformerEmbedder", "load_local_model"]

PREFIX = "sentence-transformers:"


def load_local_model(folder: Path, *, threads: int = 1) -> Any:
    """The library's model from ``folder``, offline; InvalidInput when it cannot be."""
    try:
        from sentence_transformers import SentenceTransformer
    except ImportError:
        raise InvalidInput(
            f"{PREFIX}{folder} needs the optional extra: pip install 'omoide[st]'"
        ) from None
    import torch

    torch.set_num_threads(max(1, threads))
    try:
        from huggingface_hub import constants

        constants.HF_HUB_OFFLINE = True  # the hub library reads this flag on every request
    except (ImportError, AttributeError):
        pass
    try:
        return SentenceTransformer(str(folder), device="cpu", local_files_only=True)
    except Exception as exc:  # the library raises many kinds; all mean "not a usable folder"
        raise InvalidInput(
            f"cannot load the sentence-transformers model in {folder}: {type(exc).__name__}: {exc}"
        ) from None


class SentenceTransformerEmbedder:
    calibration: Calibration = IDENTITY

    def __init__(self, folder: str | Path, *, threads: int = 1, model: Any = None) -> None:
        path = Path(folder).expanduser()
        if not path.is_dir():
            raise InvalidInput(
                f"OMOIDE_EMBEDDER={PREFIX}{folder}: no such folder (give the "
                "path of a saved sentence-transformers model)"
            )
        self.folder = path
        self._model = model if model is not None else load_local_model(path, threads=threads)
        size = (
            getattr(self._model, "get_embedding_dimension", None)
            or self._model.get_sentence_embedding_dimension
        )  # the name before v6
        self.dim = int(size())
        self.model_id = f"st:{path.resolve().name}"
        prompts = getattr(self._model, "prompts", None) or {}
        self._query_prompt = "query" if "query" in prompts else None
        self._passage_prompt = next(
            (name for name in ("passage", "document") if name in prompts), None
        )

    def _encode(self, texts: Sequence[str], prompt: str | None) -> np.ndarray:
        kwargs: dict[str, Any] = {"convert_to_numpy": True, "show_progress_bar": False}
        if prompt is not None:
            kwargs["prompt_name"] = prompt
        matrix = np.asarray(self._model.encode(list(texts), **kwargs), dtype=np.float32)
        if matrix.ndim != 2 or matrix.shape[1] != self.dim:
            raise InvalidInput(
                f"the model in {self.folder} returned vectors of shape "
                f"{matrix.shape}, expected (n, {self.dim})"
            )
        return normalise(matrix)

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return self._encode(texts, self._passage_prompt)

    def embed_query(self, text: str) -> np.ndarray:
        return self._encode([text], self._query_prompt)[0]
