"""The API kit that knows nothing of gin: bounded JSON parsing, fast rendering, bounded pagination."""
