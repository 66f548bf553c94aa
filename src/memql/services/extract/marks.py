"""Spans of a text marked as taken (the extractor's linear reading of values, times and entities)."""

from __future__ import annotations


class Marks:
    """Spans of a text marked as taken: whether a span is free is one scan of it, not a comparison with
    every span marked so far (a message of thousands of values would be read in quadratic time)."""

    def __init__(self, size: int) -> None:
        self._marked = bytearray(size)

    def mark(self, start: int, end: int) -> None:
        self._marked[start:end] = b"\x01" * (end - start)

    def free(self, start: int, end: int) -> bool:
        return self._marked.find(1, start, end) < 0
