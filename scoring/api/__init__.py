"""The REST API (DRF) of the scoring app, mounted at /api/v1/."""
