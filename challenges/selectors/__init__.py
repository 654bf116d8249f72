"""Reads for challenges, split by sub-domain (no writes here)."""
