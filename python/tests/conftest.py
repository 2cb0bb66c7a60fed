# The package under test: the build tree's (PYTHONPATH=<build>/python, as `meson test` sets it) or an installed one.
import os

import pytest


@pytest.fixture(scope="session")
def has_compiler():
    """Whether this juke compiles (a runtime-only build only runs kernels from its cache)."""
    return os.environ.get("JUKE_PY_RUNTIME_ONLY") != "1"
