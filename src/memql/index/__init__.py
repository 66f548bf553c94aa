"""In-process indexes the backends build on (vector search)."""
