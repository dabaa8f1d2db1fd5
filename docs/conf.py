"""The guide's site (``make docs``): Markdown (MyST) built by Sphinx with the Furo theme, every warning an
error, so a broken internal link or a missing page fails the build (and CI)."""

project = "ginscore"
author = "the ginscore developers"
copyright = "2026, the ginscore developers"

extensions = ["myst_parser"]
myst_enable_extensions = ["attrs_inline", "colon_fence", "deflist"]
myst_heading_anchors = 3
source_suffix = {".md": "markdown"}
exclude_patterns = ["_build", "README.md"]
html_theme = "furo"
html_title = "ginscore guide"
html_static_path = []
# No page asks the internet for anything: the guide is read in halls without it (served by the app).
html_theme_options = {"navigation_with_keys": True}
suppress_warnings = []
