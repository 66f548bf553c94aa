"""Framework integrations: memql where agent builders already are. One module per framework, each an
optional extra (`pip install 'memql[langgraph]'`) and a thin shell over the Python API (docs/integrations.md).

- `memql.integrations.langgraph`: `MemqlStore`, a LangGraph `BaseStore`.
- `memql.integrations.mem0`: `Memory`, mem0 OSS's `Memory` API over memql (needs no mem0 installed).
"""
