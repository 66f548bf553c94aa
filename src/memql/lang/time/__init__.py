"""Time normalisation: ISO-8601 durations, instants, relative ranges, natural expressions (en/zh)."""
