"""Embedders: all-MiniLM-L6-v2 run locally by a numpy BERT implementation (no torch), and a remote
OpenAI-compatible /embeddings client."""

from memql.services.embedding.minilm import (
    ENV_VAR,
    INSTALL_COMMAND,
    MODEL_NAME,
    EmbedderUnavailable,
    MiniLMEmbedder,
    available,
    default_model_dir,
)
from memql.services.embedding.remote import EmbedderError, RemoteEmbedder
from memql.services.embedding.wordpiece import WordPieceTokenizer

__all__ = [
    "ENV_VAR",
    "INSTALL_COMMAND",
    "MODEL_NAME",
    "EmbedderError",
    "EmbedderUnavailable",
    "MiniLMEmbedder",
    "RemoteEmbedder",
    "WordPieceTokenizer",
    "available",
    "default_model_dir",
]
