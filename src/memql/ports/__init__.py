"""Ports: what the engine needs from the outside world (storage, clock, models), as protocols.

Backends and providers implement these; the engine depends on nothing else.
"""
