"""Build and save a tiny sentence-transformers model (random BERT, 16 dimensions) for tests;
only importable where the optional ``st`` extra is installed."""

from __future__ import annotations

from pathlib import Path

__all__ = ["save_tiny_model"]

WORDS = ["hello", "world", "good", "##bye", "cat", "dog", "the", "a"]


def save_tiny_model(folder: Path) -> Path:
    import torch
    from sentence_transformers import SentenceTransformer, models
    from transformers import BertConfig, BertModel, BertTokenizerFast

    torch.manual_seed(0)
    raw = folder.parent / (folder.name + "-bert")
    raw.mkdir(parents=True)
    vocab = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", *WORDS]
    (raw / "vocab.txt").write_text("\n".join(vocab) + "\n", encoding="utf-8")
    BertTokenizerFast(vocab_file=str(raw / "vocab.txt")).save_pretrained(raw)
    config = BertConfig(
        vocab_size=len(vocab),
        hidden_size=16,
        num_hidden_layers=1,
        num_attention_heads=2,
        intermediate_size=32,
        max_position_embeddings=64,
    )
    BertModel(config).save_pretrained(raw)
    word = models.Transformer(str(raw), max_seq_length=32)
    size = getattr(word, "get_embedding_dimension", None) or word.get_word_embedding_dimension
    pooling = models.Pooling(size(), pooling_mode="mean")
    SentenceTransformer(modules=[word, pooling], device="cpu").save(str(folder))
    return folder
