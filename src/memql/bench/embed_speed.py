"""Speed of the local embedder: model load time and sentences/s on a fixed synthetic set.

The set is deterministic (seeded) and mixes lengths the way agent memories do: about half short notes
(3-12 words), a third medium sentences (13-40 words), the rest long passages (41-150 words, some past the
model's 256-token limit), with one text in ten in Chinese. ``synthetic_sentences`` uses only the standard
library so the same set can be fed to other runtimes for comparison.
"""

from __future__ import annotations

import os
import platform
import random
import time
from typing import Any

_EN_TEXT = (
    "the a of to and in is was for on with that it as at by from this be are have had not but or we they "
    "you he she his her their our my your meeting project deadline team report budget customer feature "
    "release bug fix database server memory agent model vector search query retrieval index python "
    "coffee morning evening weekend holiday trip flight hotel dinner lunch friend family doctor "
    "appointment birthday gift book movie music concert garden weather rain sunny cold warm city "
    "museum park beach mountain river train bus car bike office home kitchen recipe cake bread "
    "tuesday monday friday january march june september december yesterday tomorrow today week "
    "month year plan idea note reminder question answer important urgent later soon always never "
    "discussed decided agreed asked told said wrote read bought sold moved started finished "
    "learned remembered forgot visited called emailed shipped reviewed merged deployed tested "
    "quickly carefully finally really very quite almost nearly about around before after during"
)
_EN = tuple(_EN_TEXT.split())
_ZH = (
    "我们今天讨论了项目的进度和预算明天需要提交报告客户希望下周看到新功能"
    "数据库服务器运行正常周末去公园散步天气很好"
)


def synthetic_sentences(n: int = 1000, seed: int = 20260601) -> list[str]:
    """``n`` deterministic texts of mixed length and language."""
    rng = random.Random(seed)
    out: list[str] = []
    for _ in range(n):
        r = rng.random()
        if r < 0.5:
            k = rng.randint(3, 12)
        elif r < 0.83:
            k = rng.randint(13, 40)
        else:
            k = rng.randint(41, 150)
        if rng.random() < 0.1:
            start = rng.randrange(len(_ZH))
            text = "".join(_ZH[(start + j) % len(_ZH)] for j in range(k * 2)) + "。"
        else:
            words = [rng.choice(_EN) for _ in range(k)]
            if rng.random() < 0.3:
                words.insert(rng.randrange(len(words) + 1), str(rng.randint(1, 2030)))
            text = " ".join(words)
            text = text[0].upper() + text[1:] + rng.choice([".", ".", "!", "?", "..."])
        out.append(text)
    return out


def measure(n: int = 1000, model_dir: str | None = None) -> dict[str, Any]:
    """Loads the numpy MiniLM runtime and embeds ``n`` synthetic sentences in one batch call."""
    from memql.services.embedding import MiniLMEmbedder

    texts = synthetic_sentences(n)
    t0 = time.perf_counter()
    embedder = MiniLMEmbedder.load(model_dir)
    load_s = time.perf_counter() - t0
    tokens = sum(len(embedder.token_ids(t)) for t in texts)
    t1 = time.perf_counter()
    vectors = embedder.embed_array(texts)
    embed_s = time.perf_counter() - t1
    t2 = time.perf_counter()
    embedder.embed_array(texts[:1])
    single_ms = (time.perf_counter() - t2) * 1000
    return {
        "runtime": "numpy",
        "model": embedder.model,
        "dimension": int(vectors.shape[1]),
        "sentences": n,
        "tokens": tokens,
        "load_s": round(load_s, 3),
        "embed_s": round(embed_s, 3),
        "sentences_per_s": round(n / embed_s, 1) if embed_s > 0 else None,
        "tokens_per_s": round(tokens / embed_s, 1) if embed_s > 0 else None,
        "single_query_ms": round(single_ms, 2),
        "cpu_count": os.cpu_count(),
        "machine": platform.machine(),
    }


if __name__ == "__main__":  # pragma: no cover
    import json

    print(json.dumps(measure(), indent=2))
