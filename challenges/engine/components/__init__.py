"""The component library: ordinary infrastructure modules added to generated projects.

``catalog`` loads and validates the library (``library/<language>/<kind>/<impl>/``);
``compose`` adds a draw-dependent selection of components to a template's blueprint.
"""
