"""`memql bench perf`: throughput and latency beside raw SQLite."""
