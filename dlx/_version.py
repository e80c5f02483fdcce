"""The toolkit's version, in one place: ``pyproject.toml`` reads it
(``[tool.setuptools.dynamic]``), ``dlx.__version__`` and
``sudoku.__version__`` are it, and ``dlx --version`` and
``sudoku --version`` print it.  Between releases it is the next release
with ``.dev0``: CHANGELOG.md's Unreleased section says what it holds."""

__version__ = "0.2.0.dev0"
