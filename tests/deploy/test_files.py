"""The container files refer to things that exist (no engine runs here)."""

from __future__ import annotations

import re

from benchmarks.layout import ROOT

DOCKER = ROOT / "docker"


def _required_variables(compose: str) -> set[str]:
    """``${X}`` and ``${X:?message}``; ``${X:-default}`` is optional."""
    return set(re.findall(r"\$\{(\w+)(?::?\?[^}]*)?\}", compose))


def test_the_dockerfile_copies_only_files_that_exist():
    text = (DOCKER / "Dockerfile").read_text()
    assert text.startswith("# ") or "FROM python:3.11-slim" in text
    assert re.search(r"^USER \w+", text, re.M), "the image runs as a non-root user"
    for line in re.findall(r"^COPY (?!--from)(.+)$", text, re.M):
        *sources, _ = line.split()
        for source in sources:
            if not source.startswith("--"):
                assert (ROOT / source).exists(), source


def test_compose_runs_every_role_of_serve_sh_with_health_checks():
    text = (DOCKER / "compose.yaml").read_text()
    for service in ("web", "worker", "beat", "migrate", "postgres", "redis"):
        assert re.search(rf"^  {service}:$", text, re.M), service
    for role in ("web", "worker", "beat", "migrate"):
        assert f'"docker/serve.sh", "{role}"' in text, role
    assert text.count("healthcheck:") >= 3
    assert "pgdata:/var/lib/postgresql/data" in text
    assert (DOCKER / ".env.example").exists()


def test_the_env_example_names_every_variable_compose_needs():
    compose = (DOCKER / "compose.yaml").read_text()
    example = (DOCKER / ".env.example").read_text()
    needed = _required_variables(compose)
    assert "POSTGRES_PASSWORD" in needed
    defined = set(re.findall(r"^(\w+)=", example, re.M))
    assert needed <= defined, needed - defined


def test_the_docker_check_writes_every_variable_compose_needs():
    compose = (DOCKER / "compose.yaml").read_text()
    check = (DOCKER / "check.sh").read_text()
    needed = _required_variables(compose)
    written = set(re.findall(r"^(\w+)=", check.split("<<ENV", 1)[1], re.M))
    assert needed <= written, needed - written


def test_the_constraints_pin_every_runtime_dependency_at_pyprojects_version():
    """docker/constraints.txt is what the image installs: it must agree with
    pyproject.toml (regenerate it with ``make lock``)."""
    from tests.deploy.conftest import runtime_dependencies

    def normal(name: str) -> str:
        return re.sub(r"[-_.]+", "-", name).lower()

    pinned = {}
    for line in (DOCKER / "constraints.txt").read_text().splitlines():
        if line and not line.startswith("#"):
            name, version = line.split("==")
            pinned[normal(name)] = version
    for dependency in runtime_dependencies():
        name, version = dependency.split("==")
        name = name.split("[")[0]
        assert pinned.get(normal(name)) == version, dependency
