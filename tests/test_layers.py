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
import re
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
    "design_forms",
    "tasks",
    "admin",
}
INTERFACE_PACKAGES = ("surveys.api", "surveys.management", "surveys.templatetags")
INTERFACE_EXACT = {"config.urls", "config.wsgi"}
# System checks are app wiring, registered by the app config.
MODEL_MODULES = {"models", "apps", "checks"}
# The platform's registry of question kinds is a table and a lookup by name
# (importlib) that imports nothing of ours: models read the table
# (``Question.Kind``, the question's flags), while the kinds' packages it
# names stay services.
MODEL_EXACT = {"surveys.kinds"}


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
    if module in MODEL_EXACT:
        return MODELS
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
    assert layer_of("surveys.kinds") == MODELS
    assert layer_of("surveys.kinds.count.builder") == SERVICES


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


# Size. A module past about 600 lines holds more than one idea (STYLE.md); the
# pure core's top level holds the shared roles, the kinds and the inference
# live in packages (estimation/kinds/, estimation/inference/).
MAX_LINES = 600
MAX_CORE_TOP_LEVEL = 12
# Over the limit and being split; none is today. The list may only shrink, and
# the test fails when an entry is no longer over the limit so that it is removed.
OVERSIZE_ALLOWED: set[str] = set()


def line_counts(root: Path, packages: tuple[str, ...] = PACKAGES) -> dict[str, int]:
    return {
        str(path.relative_to(root)): len(path.read_text().splitlines())
        for path in modules_under(root, packages).values()
    }


def test_the_pure_core_keeps_at_most_a_dozen_modules_at_its_top_level():
    top = sorted(path.name for path in (ROOT / "estimation").glob("*.py"))
    assert len(top) <= MAX_CORE_TOP_LEVEL, top


def test_no_module_grows_past_six_hundred_lines():
    long = {name for name, n in line_counts(ROOT).items() if n > MAX_LINES}
    assert long <= OVERSIZE_ALLOWED, sorted(long - OVERSIZE_ALLOWED)
    assert OVERSIZE_ALLOWED <= long, (
        f"split already, remove from OVERSIZE_ALLOWED: {OVERSIZE_ALLOWED - long}"
    )


# Naming a kind. A question kind is one package of the pure core
# (estimation/kinds/<kind>/) registered once (estimation/kinds/__init__.py, which
# fills estimation/designs.py's DESIGNS), and one package of the platform side
# (surveys/kinds/<kind>/, named as its core twin) registered once
# (surveys/kinds/__init__.py); every other module asks the registries.
# A module names a kind when its source holds
#   - a string literal that is exactly a kind's or a kind-specific design's name
#     ("crosswise", "geometric", "multi_select", "sue" ...), or
#   - ``Kind.<MEMBER>`` (the platform's question kinds; ``Kind.choices`` lists
#     them all and names none), or
#   - an import of a kind's package (estimation.kinds.<kind>... or
#     surveys.kinds.<kind>...) from outside that kind, or an import of a kind-specific design class from anywhere (the registry
#     re-exports them, which must not become a way round the rule).
# "direct" (asking plainly, the baseline of every validation arm) and "count"
# (a common word in the code) are left out: they would match far more than
# kinds.
KIND_NAMES = frozenset(
    {
        # question kinds (surveys.models.Question.Kind)
        "yes_no",
        "multiple_choice",
        "multi_select",
        "instructed",
        # designs that belong to one kind
        "warner",
        "forced_response",
        "unrelated_question",
        "crosswise",
        "krr",
        "geometric",
        "sue",
        "oue",
        "cheating_detection",
        "lie_detector",
    }
)
KIND_CLASSES = frozenset(
    {
        "Warner",
        "Crosswise",
        "ForcedResponse",
        "UnrelatedQuestion",
        "KaryRR",
        "Geometric",
        "InstructedDesign",
        "CheatingDetection",
        "StochasticLieDetector",
        "UnaryEncoding",
        "SymmetricUnary",
        "OptimizedUnary",
    }
)
KIND_PACKAGE = "estimation.kinds"
KIND_REGISTRY = {"estimation.kinds", "estimation.designs"}
# Where kinds live, on each side; a kind's packages have the same name in both.
KIND_PACKAGES = (KIND_PACKAGE, "surveys.kinds")
PLATFORM_KIND_REGISTRY = "surveys.kinds"
# The demo survey shows every kind at work, so it names them as a researcher
# would in the builder (issue 29: "outside the kind packages, the registry and
# the demo"). It is exempt by rule, not allowed for now: it never has to shrink.
PLATFORM_DEMO = "surveys.builder.demo"


def kind_of(module: str, known: dict[str, Path]) -> str | None:
    """The kind whose package (estimation/kinds/<kind>/ or surveys/kinds/<kind>/)
    holds ``module``, or None; a plain module beside the kinds is no kind."""
    for package in KIND_PACKAGES:
        if module.startswith(package + "."):
            parts = module.split(".")
            if len(parts) > 3 or known[module].name == "__init__.py":
                return parts[2]
    return None


def reaches_into_another_kind(found: set[str]) -> set[str]:
    """Inside a kind's package only a reach into another kind counts: its own
    names and its own twin are its business."""
    return {
        f for f in found if f.startswith(tuple(f"import {p}." for p in KIND_PACKAGES))
    }


def kinds_named(module: str, path: Path, known: dict[str, Path]) -> set[str]:
    """What in ``module``'s source names a kind (see above)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Constant) and node.value in KIND_NAMES:
            found.add(repr(node.value))
        elif (
            isinstance(node, ast.Attribute)
            and node.attr.isupper()
            and (
                (isinstance(node.value, ast.Name) and node.value.id == "Kind")
                or (isinstance(node.value, ast.Attribute) and node.value.attr == "Kind")
            )
        ):
            found.add(f"Kind.{node.attr}")
        elif isinstance(node, ast.ImportFrom):
            found.update(
                f"import {a.name}" for a in node.names if a.name in KIND_CLASSES
            )
    own = kind_of(module, known)
    for imported in imports_of(module, path, known):
        kind = kind_of(imported, known)
        if kind is not None and kind != own:
            found.add(f"import {imported}")
    return found


def core_kind_names(root: Path) -> dict[str, set[str]]:
    """Modules of the pure core outside the kinds' packages and the registry
    that name a kind."""
    known = modules_under(root, ("estimation",))
    named = {}
    for module, path in known.items():
        if layer_of(module) != CORE or module in KIND_REGISTRY:
            continue
        found = kinds_named(module, path, known)
        if kind_of(module, known) is not None:
            found = reaches_into_another_kind(found)
        if found:
            named[module] = found
    return named


# Modules of the pure core that still name kinds (issue 29): each should ask
# estimation.kinds instead. None does: the package's design classes are the
# registry's re-exports, the CLI, the golden fixture and re-analysed exports
# ask the kinds' cli, golden and exported roles, and check all that apply
# builds its forced-response bit by its registered name. It must stay empty.
CORE_NAMING_ALLOWED: set[str] = set()

# Files of the platform side that name a kind (issue 29 counted 28): none does.
# The question model reads the kinds' table, and the builder, the respondent
# page, its scripts and templates, the runs and the results page ask each
# kind's roles (surveys/kinds/<kind>/). It must stay empty.
PLATFORM_NAMING_ALLOWED: set[str] = set()


def platform_kind_names(root: Path) -> set[str]:
    """Files of the platform side (surveys/, estimation/runs/, templates/,
    static/js/) outside the kinds' packages, their registry and the demo that
    name a kind."""
    known = modules_under(root, PACKAGES)
    named = set()
    for module, path in known.items():
        if layer_of(module) in (CORE, PLATFORM) or module in (
            PLATFORM_KIND_REGISTRY,
            PLATFORM_DEMO,
        ):
            continue
        found = kinds_named(module, path, known)
        if kind_of(module, known) is not None:
            found = reaches_into_another_kind(found)
        if found:
            named.add(str(path.relative_to(root)))
    names = "|".join(sorted(KIND_NAMES))
    quoted = re.compile(rf"""["'](?:{names})["']|\bKind\.[A-Z_]+""")
    for folder, suffix in (("templates", "*.html"), ("static/js", "*.js")):
        for path in (root / folder).rglob(suffix):
            if "vendor" not in path.parts and quoted.search(path.read_text()):
                named.add(str(path.relative_to(root)))
    return named


def test_only_a_kinds_own_package_and_the_registry_name_it_in_the_core():
    named = core_kind_names(ROOT)
    new = {m: sorted(f) for m, f in named.items() if m not in CORE_NAMING_ALLOWED}
    assert not new, new
    assert set(named) >= CORE_NAMING_ALLOWED, (
        "no longer names a kind, remove from CORE_NAMING_ALLOWED: "
        f"{CORE_NAMING_ALLOWED - set(named)}"
    )


def test_no_new_file_on_the_platform_side_names_a_kind():
    named = platform_kind_names(ROOT)
    assert named <= PLATFORM_NAMING_ALLOWED, sorted(named - PLATFORM_NAMING_ALLOWED)
    assert named >= PLATFORM_NAMING_ALLOWED, (
        "no longer names a kind, remove from PLATFORM_NAMING_ALLOWED: "
        f"{sorted(PLATFORM_NAMING_ALLOWED - named)}"
    )


KINDS_TREE = {
    "estimation/__init__.py": "",
    "estimation/designs.py": "",
    "estimation/results.py": "",
    "estimation/kinds/__init__.py": (
        "from estimation.kinds.count.designs import Geometric\n"
    ),
    "estimation/kinds/count/__init__.py": "",
    "estimation/kinds/count/designs.py": "NAME = 'geometric'\n",
    "estimation/kinds/count/arms.py": "from estimation.kinds.count import designs\n",
    "estimation/kinds/choice/__init__.py": "",
    "estimation/kinds/choice/designs.py": "NAME = 'krr'\n",
}


def test_a_core_whose_kinds_stay_in_their_packages_names_none(tmp_path):
    _write(tmp_path, KINDS_TREE)
    assert core_kind_names(tmp_path) == {}


@pytest.mark.parametrize(
    ("module", "source", "named", "found"),
    [
        # a generic module spelling a design's name
        (
            "estimation/results.py",
            "if design.name == 'geometric':\n    pass\n",
            "estimation.results",
            "'geometric'",
        ),
        # a generic module importing a kind's package, even lazily
        (
            "estimation/results.py",
            "def f():\n    from estimation.kinds.count.arms import x\n",
            "estimation.results",
            "import estimation.kinds.count.arms",
        ),
        # a design class taken from the registry's re-exports
        (
            "estimation/results.py",
            "from estimation.kinds import Geometric\n",
            "estimation.results",
            "import Geometric",
        ),
        # one kind reaching into another
        (
            "estimation/kinds/choice/designs.py",
            "from estimation.kinds.count.designs import Geometric\n",
            "estimation.kinds.choice.designs",
            "import estimation.kinds.count.designs",
        ),
    ],
)
def test_naming_a_kind_outside_its_package_is_reported(
    tmp_path, module, source, named, found
):
    _write(tmp_path, {**KINDS_TREE, module: source})
    assert found in core_kind_names(tmp_path)[named]


def test_a_platform_template_or_script_naming_a_kind_is_reported(tmp_path):
    _write(
        tmp_path,
        {
            **BASE_TREE,
            "surveys/results/views.py": "if q.kind == Question.Kind.COUNT:\n    pass\n",
            "templates/surveys/page.html": "{% if q.kind == 'multi_select' %}{% endif %}",
            "static/js/page.js": "if (spec.procedure === 'crosswise') {}",
            "static/js/plain.js": "export const x = 1;",
        },
    )
    assert platform_kind_names(tmp_path) == {
        "surveys/results/views.py",
        "templates/surveys/page.html",
        "static/js/page.js",
    }


def test_the_demo_may_name_kinds_and_its_neighbours_may_not(tmp_path):
    _write(
        tmp_path,
        {
            **BASE_TREE,
            "surveys/builder/demo.py": "DESIGN = {'name': 'crosswise'}\n",
            "surveys/builder/demo_answers.py": "KIND = 'yes_no'\n",
        },
    )
    assert platform_kind_names(tmp_path) == {"surveys/builder/demo_answers.py"}


PLATFORM_KINDS_TREE = {
    **BASE_TREE,
    **KINDS_TREE,
    "surveys/kinds/__init__.py": "KINDS = {'count': 'count', 'yes_no': 'binary'}\n",
    "surveys/kinds/base.py": "MAX_OPTIONS = 20\n",
    "surveys/kinds/count/__init__.py": "",
    "surveys/kinds/count/builder.py": (
        "from estimation.kinds.count.designs import NAME\n"
        "from surveys.kinds.base import MAX_OPTIONS\n"
        "DESIGNS = ('geometric', 'direct')\n"
    ),
    "surveys/kinds/choice/__init__.py": "",
    "surveys/kinds/choice/builder.py": "DESIGNS = ('krr', 'forced_response')\n",
    "surveys/builder/kinds.py": (
        "from surveys.kinds import KINDS\nfrom surveys.kinds.base import x\n"
    ),
}


def test_platform_kinds_in_their_packages_and_registry_name_none(tmp_path):
    _write(tmp_path, PLATFORM_KINDS_TREE)
    assert platform_kind_names(tmp_path) == set()


@pytest.mark.parametrize(
    ("module", "source"),
    [
        # a generic module importing a kind's platform package
        ("surveys/builder/kinds.py", "from surveys.kinds.count import builder\n"),
        # one platform kind reaching into another's platform package
        (
            "surveys/kinds/choice/builder.py",
            "from surveys.kinds.count import builder\n",
        ),
        # or into another's core package
        (
            "surveys/kinds/choice/builder.py",
            "from estimation.kinds.count.designs import NAME\n",
        ),
    ],
)
def test_a_platform_module_reaching_into_a_kind_is_reported(tmp_path, module, source):
    _write(tmp_path, {**PLATFORM_KINDS_TREE, module: source})
    assert platform_kind_names(tmp_path) == {module}


def test_a_long_module_is_counted(tmp_path):
    _write(tmp_path, {**BASE_TREE, "surveys/long.py": "x = 1\n" * (MAX_LINES + 1)})
    assert line_counts(tmp_path)["surveys/long.py"] == MAX_LINES + 1
