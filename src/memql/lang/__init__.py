"""The memory operation language: typed ops, validation, normalisation. Pure: no I/O, no clock reads."""
