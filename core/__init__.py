"""The floor under the apps: what knows nothing of gin (HTTP conditional answers so far). It imports no app
of the project (``tests/ginscore/test_house.py``); every app may import it."""
