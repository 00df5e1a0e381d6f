"""The statistical core stands alone: importing every module of it pulls in no
web framework, task queue, cache, database driver or data-frame library (it is
installed on its own with NumPy and SciPy: packaging/rr-estimation)."""

import pkgutil
import subprocess
import sys
from pathlib import Path

import estimation

FRAMEWORKS = {
    "django",
    "rest_framework",
    "celery",
    "kombu",
    "redis",
    "psycopg",
    "pandas",
    "pyreadstat",
}


def core_modules() -> list[str]:
    """Every module of the pure package, found on disk without importing it;
    ``estimation.runs`` (the Django side) is left out."""
    names = []

    def walk(path: list[str], prefix: str) -> None:
        for info in pkgutil.iter_modules(path, prefix):
            if info.name == "estimation.runs":
                continue
            names.append(info.name)
            if info.ispkg:
                walk(
                    [str(Path(path[0]) / info.name.rpartition(".")[2])], info.name + "."
                )

    walk(list(estimation.__path__), "estimation.")
    return sorted(["estimation", *names])


def test_the_walk_finds_the_core():
    names = core_modules()
    on_disk = {
        "estimation." + p.stem
        for p in Path(estimation.__file__).parent.glob("*.py")
        if p.stem != "__init__"
    }
    assert on_disk <= set(names)
    assert not any(name.startswith("estimation.runs") for name in names)


def test_importing_the_core_does_not_import_a_framework():
    modules = core_modules()
    code = (
        "import importlib, sys\n"
        f"for name in {modules!r}:\n"
        "    importlib.import_module(name)\n"
        "loaded = sorted(m for m in sys.modules if m.split('.')[0] in "
        f"{sorted(FRAMEWORKS)!r})\n"
        "print(','.join(loaded))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == ""
