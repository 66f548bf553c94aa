"""The engine: executes validated IRs against a Store, one transaction per IR or workflow, with
governance, an audit log and dry runs. One module per verb family under engine.verbs."""
