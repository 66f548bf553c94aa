"""Development tools that stay beside the package and are not shipped with it (the wheel holds only
src/memql). Run them from the repository root, e.g. `python -m benchmarks.memql_set --check
src/memql/bench/sets/memql-v1.jsonl`; pytest finds them through the `pythonpath` option in pyproject.toml."""
