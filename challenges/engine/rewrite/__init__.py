"""Semantics-preserving rewrites of generated source, drawn per instance.

A language's *planner* reads one rendered module and proposes span edits (``edits.Edit``)
outside the protected spans (every site and the mutation region), each choice keyed by
the draw's seed and the text of the node it rewrites, so the shipped, gold and every
other variant of a module are rewritten alike everywhere but at the sites. ``edits.apply``
applies the plan and moves the protected spans with it.
"""
