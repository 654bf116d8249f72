"""Reads for detection, split by sub-domain; import from the sub-modules."""
