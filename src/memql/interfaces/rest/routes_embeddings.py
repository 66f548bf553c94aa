"""/v1/embeddings: OpenAI's embeddings API over memql's own local model, so mem0, LangGraph's index, Chroma
or any OpenAI client embeds offline with the very vectors memql compares (the shell over
`Memory.embed`). Authenticated like every other route; the caller's tenant plays no part in a vector."""

from __future__ import annotations

import base64
from typing import Any, Literal

import numpy as np
from fastapi import APIRouter
from pydantic import BaseModel, ConfigDict, Field, field_validator
from pydantic_core import PydanticCustomError

from memql.errors import Refusal
from memql.interfaces.rest.auth import CallerMemory
from memql.interfaces.rest.encoding import JSONResponse
from memql.interfaces.rest.errors import documented_refusals

router = APIRouter(prefix="/v1", tags=["embeddings"])

MAX_INPUTS = 2048  # OpenAI's own limit on one request's inputs
MAX_CHARS = 100_000  # one input; the model reads its first 256 tokens anyway

REFUSALS = documented_refusals(
    {
        422: "invalid input: the field and the rule are named",
        404: "the server runs without an embedder (--embedder none)",
    }
)


class EmbeddingsRequest(BaseModel):
    """OpenAI's request body. `input`: one text or a list of texts (token-id arrays are not taken: the
    server tokenizes with its own model's vocabulary)."""

    model_config = ConfigDict(extra="forbid")

    model: str = Field(min_length=1, max_length=256, description="the server's model (GET it from an error)")
    input: str | list[str] = Field(description="a text or a list of texts, each non-empty")
    encoding_format: Literal["float", "base64"] = "float"
    dimensions: int | None = Field(None, ge=1, description="if given, must be the model's own dimension")
    user: str | None = Field(None, max_length=256, description="accepted and ignored, as a hint for abuse")

    @field_validator("input", mode="before")
    @classmethod
    def _texts(cls, value: Any) -> Any:
        if isinstance(value, list):
            if not value:
                raise ValueError("input: give at least one text")
            if len(value) > MAX_INPUTS:
                raise ValueError(f"input: at most {MAX_INPUTS} texts in one request")
            if any(isinstance(v, int | list) for v in value):
                raise ValueError("input: token-id arrays are not accepted; send the texts")
            if not all(isinstance(v, str) for v in value):
                raise PydanticCustomError("input_type", "input: every item must be a string")
            texts = value
        elif isinstance(value, str):
            texts = [value]
        else:  # said here, so the diagnostic points at /input and not at a branch of the union
            raise PydanticCustomError("input_type", "input: a string or a list of strings")
        for text in texts:
            if not text.strip():
                raise ValueError("input: a text is empty")
            if len(text) > MAX_CHARS:
                raise ValueError(f"input: a text is longer than {MAX_CHARS} characters")
        return value


def _served(requested: str, model: str) -> bool:
    """The request names the served model: its name, or a hub path ending in it (sentence-transformers/…)."""
    return requested.lower() == model.lower() or requested.lower().endswith("/" + model.lower())


@router.post(
    "/embeddings",
    responses=REFUSALS,
    summary="OpenAI-compatible embeddings from memql's local model (the vectors memql itself compares)",
)
def embeddings(request: EmbeddingsRequest, memory: CallerMemory) -> JSONResponse:
    """One unit-length vector per input, in input order, from the server's embedder (all-MiniLM-L6-v2
    by default): `{"object": "list", "data": [{"object": "embedding", "index", "embedding"}], "model",
    "usage"}`. A `model` other than the served one is refused rather than answered with other vectors."""
    served = memory.embedding_model
    if served is None:
        raise Refusal(
            "embedding.unavailable", "the server runs without an embedder (memql serve --embedder none)"
        )
    name, dimension = served
    if not _served(request.model, name):
        raise Refusal("field.enum", f"model: this server embeds with {name!r} only", "/model")
    if request.dimensions is not None and request.dimensions != dimension:
        raise Refusal("field.range", f"dimensions: {name} gives {dimension} dimensions", "/dimensions")
    texts = [request.input] if isinstance(request.input, str) else request.input
    vectors = memory.embed(texts)
    tokens = memory.count_embedding_tokens(texts)
    data = [
        {"object": "embedding", "index": i, "embedding": _encoded(v, request.encoding_format)}
        for i, v in enumerate(vectors)
    ]
    usage = {"prompt_tokens": tokens, "total_tokens": tokens}
    return JSONResponse({"object": "list", "data": data, "model": name, "usage": usage})


def _encoded(vector: list[float], encoding: str) -> list[float] | str:
    """OpenAI's base64 form is the little-endian float32 bytes of the vector."""
    if encoding == "float":
        return vector
    return base64.b64encode(np.asarray(vector, dtype="<f4").tobytes()).decode("ascii")
