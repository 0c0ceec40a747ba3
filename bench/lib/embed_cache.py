"""A file cache of passage vectors per embedder model, so re-running a benchmark embeds only
texts it has not seen."""

from __future__ import annotations

import hashlib
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from omoide.embed import Embedder

__all__ = ["cached_embeddings"]


def cached_embeddings(embedder: Embedder, texts: Sequence[str], cache_dir: Path) -> np.ndarray:
    """Passage vectors for ``texts``, computing only those not in the cache file of this
    embedder's model id (one .npz per model: text sha1 -> vector)."""
    cache_dir.mkdir(parents=True, exist_ok=True)
    safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in embedder.model_id)
    path = cache_dir / f"{safe}.npz"
    keys = [hashlib.sha1(t.encode("utf-8")).hexdigest() for t in texts]
    store: dict[str, np.ndarray] = {}
    if path.exists():
        with np.load(path) as saved:
            store = dict(zip(saved["keys"].tolist(), saved["vecs"], strict=True))
    missing = sorted({i for i, k in enumerate(keys) if k not in store}, key=keys.__getitem__)
    if missing:
        print(f"embedding {len(missing)} turns with {embedder.model_id} ...", file=sys.stderr)
        vectors = embedder.embed_passages([texts[i] for i in missing])
        store.update((keys[i], v) for i, v in zip(missing, vectors, strict=True))
        ordered = sorted(store)
        np.savez(path, keys=np.array(ordered), vecs=np.stack([store[k] for k in ordered]))
    return np.stack([store[k] for k in keys]).astype(np.float32)
