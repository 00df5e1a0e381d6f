"""Who may import whom. The data path reads top to bottom:

    interfaces (views, urls, forms, tasks, the API, commands, template tags)
      -> services and selectors (everything else in surveys/ and estimation/runs/)
        -> models (surveys.models, estimation.runs.models, app configs)
          -> the pure core (estimation/ outside runs/) and the platform (config/)

A module may import its own layer or any layer below it, never one above. The
pure core imports nothing of ours outside itself, the platform nothing outside
config/, and no two modules import each other, directly or round a circle.

The rules are read from the source (every ``import``, including those inside
functions), so a lazy import cannot hide an upward edge.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("surveys", "estimation", "config")

CORE, PLATFORM, MODELS, SERVICES, INTERFACES = (
    "core",
    "platform",
    "models",
    "services",
    "interfaces",
)
RANK = {CORE: 0, PLATFORM: 0, MODELS: 1, SERVICES: 2, INTERFACES: 3}

INTERFACE_MODULES = {
    "views",
    "export_views",
    "translation_views",
    "model_views",
    "urls",
    "forms",
    "tasks",
    "admin",
}
INTERFACE_PACKAGES = ("surveys.api", "surveys.management", "surveys.templatetags")
INTERFACE_EXACT = {"config.urls", "config.wsgi"}
# System checks are app wiring, registered by the app config.
MODEL_MODULES = {"models", "apps", "checks"}


def layer_of(module: str) -> str:
    """The layer a dotted module name belongs to, from where it lives."""
    parts = module.split(".")
    if module in INTERFACE_EXACT or module.startswith(
        tuple(p + "." for p in INTERFACE_PACKAGES)
    ):
        return INTERFACES
    if module in INTERFACE_PACKAGES:
        return INTERFACES
    if parts[0] == "config":
        return PLATFORM
    if parts[0] == "estimation" and parts[1:2] != ["runs"]:
        return CORE
    if parts[-1] in INTERFACE_MODULES:
        return INTERFACES
    if parts[-1] in MODEL_MODULES:
        return MODELS
    return SERVICES


def modules_under(root: Path, packages: tuple[str, ...]) -> dict[str, Path]:
    """Every importable module of ``packages`` under ``root`` (migrations left out:
    Django writes them and they name models by string)."""
    found = {}
    for package in packages:
        for path in (root / package).rglob("*.py"):
            if "migrations" in path.parts:
                continue
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def imports_of(module: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The project modules that ``module`` imports, resolved to the module that
    holds the imported name (``from surveys.builder import views`` is
    ``surveys.builder.views``)."""

    def resolve(name: str) -> str | None:
        while name and name not in known:
            name = name.rpartition(".")[0]
        return name or None

    package = (
        module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    )
    found: set[str | None] = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            found.update(resolve(alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - (node.level - 1)]
                name = ".".join(base + ([node.module] if node.module else []))
            else:
                name = node.module or ""
            for alias in node.names:
                found.add(resolve(f"{name}.{alias.name}") or resolve(name))
    return {name for name in found if name and name != module}


def import_graph(
    root: Path, packages: tuple[str, ...] = PACKAGES
) -> dict[str, set[str]]:
    known = modules_under(root, packages)
    return {module: imports_of(module, path, known) for module, path in known.items()}


@dataclass(frozen=True)
class Breach:
    importer: str
    imported: str
    why: str

    def __str__(self) -> str:
        return f"{self.importer} imports {self.imported}: {self.why}"


def layer_breaches(graph: dict[str, set[str]]) -> list[Breach]:
    breaches = []
    for importer, imported_set in sorted(graph.items()):
        low = layer_of(importer)
        for imported in sorted(imported_set):
            high = layer_of(imported)
            if low == CORE and high != CORE:
                breaches.append(
                    Breach(importer, imported, "the pure core imports only itself")
                )
            elif (
                low == PLATFORM and high != PLATFORM and importer not in INTERFACE_EXACT
            ):
                breaches.append(
                    Breach(importer, imported, "config/ imports nothing of ours")
                )
            elif RANK[high] > RANK[low]:
                breaches.append(
                    Breach(importer, imported, f"{low} may not import {high}")
                )
    return breaches


def import_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in graph.get(node, ()):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return cycles


@pytest.fixture(scope="module")
def graph() -> dict[str, set[str]]:
    return import_graph(ROOT)


def test_the_graph_sees_the_project(graph):
    # Guards the test itself: a resolver that found nothing would pass everything.
    assert "surveys.builder.views" in graph
    assert "surveys.builder.services" in graph["surveys.builder.views"]
    assert "estimation.runs.scheduling" in graph["estimation.runs.tasks"]
    assert layer_of("surveys.api.views") == INTERFACES
    assert layer_of("surveys.respond.submissions") == SERVICES
    assert layer_of("estimation.runs.models") == MODELS
    assert layer_of("estimation.designs") == CORE


def test_no_module_imports_upward(graph):
    breaches = layer_breaches(graph)
    assert not breaches, "\n".join(map(str, breaches))


def test_no_import_cycles(graph):
    cycles = import_cycles(graph)
    assert not cycles, "\n".join(" <-> ".join(c) for c in cycles)


def test_services_and_tasks_do_not_import_each_other(graph):
    assert "estimation.runs.tasks" not in graph["estimation.runs.services"]
    assert "estimation.runs.tasks" not in graph["estimation.runs.scheduling"]


def _write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


BASE_TREE = {
    "surveys/__init__.py": "",
    "surveys/models.py": "from estimation import designs\n",
    "surveys/builder/__init__.py": "",
    "surveys/builder/services.py": "from surveys.models import Survey\n",
    "surveys/builder/views.py": "from . import services\n",
    "estimation/__init__.py": "",
    "estimation/designs.py": "",
    "config/__init__.py": "",
    "config/settings.py": "",
}


def test_a_clean_tree_has_no_breaches(tmp_path):
    _write(tmp_path, BASE_TREE)
    graph = import_graph(tmp_path)
    assert graph["surveys.builder.views"] == {"surveys.builder.services"}
    assert layer_breaches(graph) == []
    assert import_cycles(graph) == []


@pytest.mark.parametrize(
    ("module", "source", "importer", "imported"),
    [
        # a service reaching up into a view, even lazily inside a function
        (
            "surveys/builder/services.py",
            "def f():\n    from surveys.builder.views import page\n",
            "surveys.builder.services",
            "surveys.builder.views",
        ),
        # a model importing a service
        (
            "surveys/models.py",
            "from .builder import services\n",
            "surveys.models",
            "surveys.builder.services",
        ),
        # the pure core importing Django-side code
        (
            "estimation/designs.py",
            "import surveys.models\n",
            "estimation.designs",
            "surveys.models",
        ),
        # settings importing the app
        (
            "config/settings.py",
            "from surveys import models\n",
            "config.settings",
            "surveys.models",
        ),
    ],
)
def test_an_upward_import_is_reported(tmp_path, module, source, importer, imported):
    _write(tmp_path, {**BASE_TREE, module: source})
    breaches = layer_breaches(import_graph(tmp_path))
    assert [(b.importer, b.imported) for b in breaches] == [(importer, imported)]


def test_a_circle_is_reported(tmp_path):
    _write(
        tmp_path,
        {
            **BASE_TREE,
            "surveys/builder/selectors.py": "from surveys.builder import services\n",
            "surveys/builder/services.py": "from surveys.builder.selectors import x\n",
        },
    )
    assert import_cycles(import_graph(tmp_path)) == [
        ["surveys.builder.selectors", "surveys.builder.services"]
    ]
