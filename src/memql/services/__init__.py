"""Offline text services: deterministic, bilingual (en/zh) algorithms used when no LLM is configured,
and the lexical analyzer of the full-text index.
"""

from memql.services.chunks import (
    chunk_by_count,
    chunk_by_size,
    split_by_delimiters,
    split_by_topics,
    split_markdown_sections,
)
from memql.services.keywords import jaccard, keywords
from memql.services.merge import merge_texts
from memql.services.sentences import split_paragraphs, split_sentences
from memql.services.summarize import estimate_tokens, summarize
from memql.services.tokenize import (
    fts_match_expression,
    index_terms,
    index_text,
    is_cjk,
    normalize_text,
    query_terms,
    query_tokens,
    tokens,
)

__all__ = [
    "chunk_by_count",
    "chunk_by_size",
    "estimate_tokens",
    "fts_match_expression",
    "index_terms",
    "index_text",
    "is_cjk",
    "jaccard",
    "keywords",
    "merge_texts",
    "normalize_text",
    "query_terms",
    "query_tokens",
    "split_by_delimiters",
    "split_by_topics",
    "split_markdown_sections",
    "split_paragraphs",
    "split_sentences",
    "summarize",
    "tokens",
]
