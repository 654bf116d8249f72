"""Writes and heavy operations for challenges, split by sub-domain."""
