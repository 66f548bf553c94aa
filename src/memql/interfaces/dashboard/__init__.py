"""The web dashboard (DESIGN §10): browse and search memories, a record's history and lineage, facts with
their validity windows, the proposals queue, and the actions on a record (lock, unlock, expire, delete,
restore) — server-rendered (Jinja2) over the Python API, with a little hand-written CSS and JS and nothing
fetched from the network. The REST server mounts it at `/`; see docs/dashboard.md."""

from memql.interfaces.dashboard.router import dashboard_router

__all__ = ["dashboard_router"]
