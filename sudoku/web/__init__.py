"""``sudoku serve``: a local web page and JSON API over the solver.

The page (``static/``: plain HTML, CSS and JavaScript, nothing loaded from
elsewhere) edits and solves grids up to 16x16 (any size the API takes by
pasting text) and runs general exact-cover problems.  ``service`` does the
work, ``app`` holds the routes (Starlette), ``server`` starts uvicorn.
The web framework is an optional extra: ``pip install 'dlx-toolkit[web]'``.
"""
