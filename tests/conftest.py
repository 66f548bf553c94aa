"""Suite-wide settings: tests run without the local embedding model unless a test asks for it
(semantics tests stay fast and exact; retrieval tests pass an embedder explicitly)."""

import os

os.environ.setdefault("MEMQL_EMBEDDER", "none")
