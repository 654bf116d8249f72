"""Probe languages (registry in ``base``)."""

from challenges.judge.languages.base import CompiledFile, CompileError, ProbeLanguage, get_language, languages

__all__ = ["CompiledFile", "CompileError", "ProbeLanguage", "get_language", "languages"]
