"""The scoring app: the engine (scoring.engine) and the Django code around it."""
