"""The REST server (`memql serve`): a thin shell over the Python API.

- memql.interfaces.rest.app: `create_app(store, ...)`, the FastAPI app
- memql.interfaces.rest.auth: API key -> the caller's Memory (`caller_memory`, a FastAPI dependency)
- memql.interfaces.rest.routes_*: the endpoints, by area
- memql.interfaces.rest.errors: refusals as 4xx JSON bodies with the engine's diagnostics
- memql.interfaces.rest.middleware: the request size limit and the access log
- memql.interfaces.rest.server: running it under uvicorn

See docs/rest.md.
"""
