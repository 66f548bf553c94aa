"""The memql shells (CLI, later REST and MCP): thin layers over the Python API."""
