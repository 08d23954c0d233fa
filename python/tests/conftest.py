"""Shared helpers: the CLI binary the package is checked against, the
fixtures."""

from __future__ import annotations

import json
import os
import pathlib
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "fixtures"


def cli_binary() -> pathlib.Path:
    """The gamerec binary: $GAMEREC_BIN, else the repository's build."""
    given = os.environ.get("GAMEREC_BIN")
    if given:
        return pathlib.Path(given)
    for kind in ("release", "debug"):
        path = ROOT / "target" / kind / "gamerec"
        if path.exists():
            return path
    subprocess.run(["cargo", "build", "--quiet", "--bin", "gamerec"], cwd=ROOT, check=True)
    return ROOT / "target" / "debug" / "gamerec"


def wthor_dir() -> pathlib.Path | None:
    """The WTHOR database: $GAMEREC_WTHOR (`none`: without it), else beside
    the repository."""
    if os.environ.get("GAMEREC_WTHOR") == "none":
        return None
    for d in (os.environ.get("GAMEREC_WTHOR"), ROOT.parent / "shared" / "data" / "wthor"):
        if d and pathlib.Path(d).is_dir():
            return pathlib.Path(d)
    return None


@pytest.fixture(scope="session")
def cli():
    binary = cli_binary()

    def run(*args: str, stdin: bytes = b"") -> subprocess.CompletedProcess:
        return subprocess.run(
            [str(binary), *args], input=stdin, capture_output=True, cwd=ROOT, check=False
        )

    return run


@pytest.fixture(scope="session")
def cli_json(cli):
    def report(*args: str) -> dict:
        out = cli("validate", "--format", "json", *args)
        return json.loads(out.stdout)

    return report


def fixture_files() -> list[pathlib.Path]:
    skip = {".JOU", ".TRN"}
    return sorted(
        p
        for p in FIXTURES.rglob("*")
        # fixtures/README records the fixtures' sources; it is no record
        if p.is_file() and p.suffix.upper() not in skip and p.name != "README"
    )
