"""``DIR/atlas.html``: the atlas's page, its figures and its words (the words shared with
compare's skill section), apart from the run report's modules at the top of
:mod:`reports`.
"""
