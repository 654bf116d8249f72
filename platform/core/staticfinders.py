"""Serve plotly.js from the installed plotly package, so pages never need a CDN."""

from __future__ import annotations

from pathlib import Path

import plotly
from django.contrib.staticfiles.finders import BaseFinder
from django.core.files.storage import FileSystemStorage

_PLOTLY_DIR = Path(plotly.__file__).resolve().parent / "package_data"
_PUBLIC_NAME = "vendor/plotly.min.js"


class PlotlyFinder(BaseFinder):
    """Expose ``plotly/package_data/plotly.min.js`` as ``static/vendor/plotly.min.js``."""

    def __init__(self, *args, **kwargs):
        self.storage = FileSystemStorage(location=str(_PLOTLY_DIR))
        self.storage.prefix = "vendor"

    def check(self, **kwargs):
        return []

    def find(self, path, find_all=False, **kwargs):
        if path != _PUBLIC_NAME:
            return [] if find_all else None
        match = str(_PLOTLY_DIR / "plotly.min.js")
        return [match] if find_all else match

    def list(self, ignore_patterns):
        yield "plotly.min.js", self.storage
