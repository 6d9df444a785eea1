"""What the package is and ships (issue 15, Operators): one source of the version (lobby/__init__.py,
read by setup.cfg, printed by ``tichu-lobby --version``), the MIT LICENSE, uvloop as the optional
extra ``[uvloop]`` (the server runs without it and uses it when present and asked), and the JSON
Schema of machine mode as package data (protocol.json_schema()). The wheel is built from a copy of
the checkout and looked into: the schema, the twist plugin (without an ``__init__.py`` that would
shadow Twisted) and the licence are in it, and an installation of it finds the plugin."""
from __future__ import annotations

import configparser
import importlib.metadata
import os
import re
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

import lobby
import protocol
from server_process import ROOT, ServerProcess, command, greeting

SETUP = configparser.ConfigParser()
SETUP.read(ROOT / "setup.cfg", encoding="utf-8")


def requirements(text: str) -> list[str]:
    return [line.strip() for line in text.strip().splitlines() if line.strip()]


# ---- the version ---------------------------------------------------------------------------------
def test_the_version_has_one_source() -> None:
    assert SETUP["metadata"]["version"] == "attr: lobby.__version__"
    assert lobby.__version__ and lobby.__version__[0].isdigit()
    # the installed metadata came from there (scripts/_venv.sh reinstalls when it changes)
    assert importlib.metadata.version("tichu-lobby") == lobby.__version__
    for argv in ([command("tichu-lobby"), "--version"],
                 [sys.executable, "-m", "protocol", "--version"]):
        done = subprocess.run(argv, capture_output=True, text=True, timeout=60, cwd=ROOT)
        assert done.returncode == 0, done.stderr
        assert done.stdout.strip() == f"tichu-lobby {lobby.__version__}"


# ---- the licence ---------------------------------------------------------------------------------
def test_the_licence_is_mit() -> None:
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License\n")
    assert "Copyright (c)" in text and "the tichu-lobby authors" in text
    assert 'THE SOFTWARE IS PROVIDED "AS IS"' in text
    assert SETUP["metadata"]["license"] == "MIT"
    assert SETUP["metadata"]["license_files"].strip() == "LICENSE"


# ---- uvloop: an optional extra -------------------------------------------------------------------
def test_uvloop_is_an_optional_extra() -> None:
    hard = requirements(SETUP["options"]["install_requires"])
    assert not [r for r in hard if r.lower().startswith("uvloop")]
    extra = requirements(SETUP["options.extras_require"]["uvloop"])
    assert len(extra) == 1 and extra[0].startswith("uvloop")
    installed = importlib.metadata.requires("tichu-lobby") or []
    assert [r for r in installed if r.startswith("uvloop") and 'extra == "uvloop"' in r]
    assert not [r for r in installed if r.startswith("uvloop") and "extra ==" not in r]


#: runs the server as `python -m protocol` does, with uvloop made unimportable first
WITHOUT_UVLOOP = ("import sys; sys.modules['uvloop'] = None\n"
                  "from protocol.process.server import main\n"
                  "raise SystemExit(main(sys.argv[1:]))")


@pytest.mark.parametrize("uvloop", ["absent", "present"])
def test_the_server_runs_with_and_without_uvloop(tmp_path: Path, uvloop: str) -> None:
    if uvloop == "present":
        pytest.importorskip("uvloop", reason="uvloop is not installed (pip install .[uvloop])")
        argv = [sys.executable, "-m", "protocol"]
    else:
        argv = [sys.executable, "-c", WITHOUT_UVLOOP]
    argv += ["--uvloop", "--db", str(tmp_path / "lobby.sqlite3"),
             "--port", "tcp:0:interface=127.0.0.1"]
    with ServerProcess(argv, tmp_path) as server:
        greeting(server.port)
        code, out = server.stop()
    assert code == 0, out
    loop_line = next(line for line in out.splitlines() if "event loop: " in line)
    if uvloop == "present":
        assert "event loop: asyncio on uvloop" in loop_line and "#info" in loop_line
    else:
        assert "uvloop is not installed: pip install tichu-lobby[uvloop]" in loop_line
        assert "#warn" in loop_line


def test_the_benchmarks_refuse_uvloop_they_do_not_have(tmp_path: Path) -> None:
    """Without uvloop, `--loops uvloop` would measure the standard loop under uvloop's name."""
    script = ("import runpy, sys; sys.modules['uvloop'] = None\n"
              "sys.argv = [sys.argv[1]] + sys.argv[2:]\n"
              "runpy.run_path(sys.argv[0], run_name='__main__')")
    for bench, args in (("bench_server.py", ["--loops", "asyncio,uvloop", "--quick"]),
                        ("bench_tables.py", ["--uvloop"])):
        done = subprocess.run([sys.executable, "-c", script, str(ROOT / "scripts" / bench), *args],
                              capture_output=True, text=True, timeout=60, cwd=tmp_path,
                              env=dict(os.environ, PYTHONPATH=str(ROOT)))
        assert done.returncode == 2, (bench, done.stdout, done.stderr)
        assert "uvloop is not installed: pip install .[uvloop]" in done.stderr, bench


# ---- the JSON Schema: package data ---------------------------------------------------------------
def test_the_schema_is_package_data_in_one_place() -> None:
    schema = protocol.json_schema()
    Draft202012Validator.check_schema(schema)
    assert "state" in schema["properties"]["type"]["enum"]
    # read through importlib.resources from the package, and the only copy in the checkout
    assert (Path(protocol.__file__).parent / protocol.SCHEMA_FILE).read_text("utf-8") \
        == protocol.json_schema_text()
    copies = sorted(p.relative_to(ROOT).as_posix() for p in ROOT.rglob("*.schema.json")
                    if not any(part.startswith(".venv") for part in p.parts)
                    and "build" not in p.parts)
    assert copies == ["protocol/protocol.schema.json"]
    assert SETUP["options.package_data"]["protocol"].strip() == "protocol.schema.json"


# ---- the wheel -----------------------------------------------------------------------------------
def checkout_copy(dest: Path, tests: bool = False) -> Path:
    """The files git knows (and new ones not ignored), without tests/ unless asked: what a release
    is built from, so that the build never writes into the checkout."""
    listed = subprocess.run(["git", "ls-files", "-co", "--exclude-standard"], cwd=ROOT,
                            capture_output=True, text=True, check=True).stdout.splitlines()
    for name in listed:
        source = ROOT / name
        if (name.startswith("tests/") and not tests) or not source.is_file():
            continue
        target = dest / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(source, target)
    return dest


@pytest.mark.slow   # builds a wheel (a few seconds of setuptools)
def test_the_wheel_ships_the_schema_the_plugin_and_the_licence(tmp_path: Path) -> None:
    pytest.importorskip("setuptools", reason="the test extra's setuptools builds the wheel")
    source = checkout_copy(tmp_path / "src")
    dist = tmp_path / "dist"
    done = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps",
                           "--no-build-isolation", "-q", "-w", str(dist), str(source)],
                          capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    (wheel,) = dist.glob("tichu_lobby-*.whl")
    assert wheel.name.startswith(f"tichu_lobby-{lobby.__version__}-")
    names = set(zipfile.ZipFile(wheel).namelist())
    assert "protocol/protocol.schema.json" in names
    for lang in ("de", "fr", "es", "da"):      # the compiled catalogs are package data
        assert f"lobby/text/locales/{lang}/LC_MESSAGES/messages.mo" in names
        assert f"lobby/text/locales/{lang}/LC_MESSAGES/messages.po" in names
    assert "twisted/plugins/tichu_lobby.py" in names
    # an __init__.py there would make this wheel's twisted/ shadow Twisted itself
    assert "twisted/__init__.py" not in names and "twisted/plugins/__init__.py" not in names
    assert not [n for n in names if n.startswith(("tests/", "scripts/", "docs/"))]
    assert any(n.endswith(".dist-info/licenses/LICENSE") or n.endswith(".dist-info/LICENSE")
               for n in names)
    metadata = next(n for n in names if n.endswith(".dist-info/METADATA"))
    text = zipfile.ZipFile(wheel).read(metadata).decode()
    assert f"\nVersion: {lobby.__version__}\n" in text
    assert 'Provides-Extra: uvloop' in text

    # installed (into a directory of its own, first on the path): the schema is read from the
    # installed package and Twisted's plugin system finds the installed plugin
    target = tmp_path / "site"
    done = subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "-q",
                           "--target", str(target), str(wheel)],
                          capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    probe = ("import protocol, lobby; from twisted.plugin import getPlugins; "
             "from twisted.application.service import IServiceMaker; "
             "maker = [p for p in getPlugins(IServiceMaker) if p.tapname == 'tichu-lobby']; "
             "import sys; mod = sys.modules[type(maker[0]).__module__]; "
             "print(protocol.__file__); print(mod.__file__); print(len(protocol.json_schema()))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          timeout=120, cwd=tmp_path, env=dict(os.environ, PYTHONPATH=str(target)))
    assert done.returncode == 0, done.stderr
    protocol_file, plugin_file, size = done.stdout.split()
    assert Path(protocol_file).is_relative_to(target) and Path(plugin_file).is_relative_to(target)
    assert int(size) > 0


# ---- the metadata --------------------------------------------------------------------------------
def test_the_metadata_has_classifiers_and_keywords() -> None:
    meta = importlib.metadata.metadata("tichu-lobby")
    classifiers = meta.get_all("Classifier") or []
    assert "License :: OSI Approved :: MIT License" in classifiers
    assert "Framework :: Twisted" in classifiers
    assert "Topic :: Games/Entertainment :: Board Games" in classifiers
    # the Python versions claimed are those python_requires allows (the suite runs on them)
    floor = SETUP["options"]["python_requires"].strip()
    assert floor == ">=3.11"
    pythons = [c.rsplit(" :: ", 1)[1] for c in classifiers
               if re.fullmatch(r"Programming Language :: Python :: 3\.\d+", c)]
    assert pythons and all(tuple(map(int, v.split("."))) >= (3, 11) for v in pythons)
    # the catalogs' languages (lobby/text/locales) are the natural languages claimed
    languages = {c.rsplit(" :: ", 1)[1] for c in classifiers if c.startswith("Natural Language")}
    assert languages == {"English", "German", "French", "Spanish", "Danish"}
    keywords = [k.strip() for k in (meta["Keywords"] or "").split(",")]
    assert {"tichu", "brettspielwelt", "telnet", "twisted"} <= set(keywords)


# ---- the dependency floors -----------------------------------------------------------------------
REQUIREMENT = re.compile(r"([A-Za-z0-9_.-]+)(\[[^\]]*\])?\s*>=\s*([0-9][0-9A-Za-z.]*)\s*,\s*<\s*([0-9]+)")


def floors() -> dict[str, str]:
    """Each direct dependency's floor, as scripts/floors reads them."""
    found: dict[str, str] = {}
    for line in requirements(SETUP["options"]["install_requires"]):
        if line.startswith("#"):
            continue
        match = REQUIREMENT.fullmatch(line)
        assert match, f"{line!r}: a floor and a bounded major (NAME >= LOW, < MAJOR)"
        found[match.group(1)] = match.group(3)
    return found


def test_every_dependency_has_a_floor_and_a_bounded_major() -> None:
    assert set(floors()) == {"Twisted", "argon2-cffi", "prometheus-client", "autobahn", "Babel"}


@pytest.mark.skipif(not os.environ.get("TICHU_FLOORS"),
                    reason="runs under scripts/floors (the suite against the dependency floors)")
def test_scripts_floors_installed_each_floor() -> None:
    """Under scripts/floors, what is installed is each floor setup.cfg names, not a newer release."""
    from packaging.version import Version
    written = Path(os.environ["TICHU_FLOORS"]).read_text("utf-8").split()
    assert sorted(written) == sorted(f"{name}=={low}" for name, low in floors().items())
    for name, low in floors().items():
        assert Version(importlib.metadata.version(name)) == Version(low), name


# ---- the source distribution ---------------------------------------------------------------------
@pytest.mark.slow   # builds an sdist (a few seconds of setuptools)
def test_the_sdist_carries_tests_docs_and_the_licence(tmp_path: Path) -> None:
    pytest.importorskip("setuptools", reason="the test extra's setuptools builds the sdist")
    source = checkout_copy(tmp_path / "src", tests=True)
    dist = tmp_path / "dist"
    done = subprocess.run([sys.executable, "-c",
                           "import sys; from setuptools import build_meta as b; "
                           "print(b.build_sdist(sys.argv[1]))", str(dist)],
                          capture_output=True, text=True, timeout=300, cwd=source)
    assert done.returncode == 0, done.stdout + done.stderr
    (sdist,) = dist.glob("tichu_lobby-*.tar.gz")
    top = f"tichu_lobby-{lobby.__version__}/"
    with tarfile.open(sdist) as tar:
        names = {n[len(top):] for n in tar.getnames() if n.startswith(top)}
        info = tar.extractfile(top + "PKG-INFO")
        assert info is not None
        pkg_info = info.read().decode()
    for name in ("LICENSE", "README.md", "setup.cfg", "pyproject.toml", "MANIFEST.in",
                 "tests/project/test_packaging.py", "tests/conftest.py", "tests/server_process.py",
                 "docs/operations.md", "docs/protocol.md", "docs/bots.md",
                 "deploy/tichu-lobby.toml", "deploy/tichu-lobby.service",
                 "scripts/test", "scripts/floors", "protocol/protocol.schema.json",
                 "lobby/text/locales/de/LC_MESSAGES/messages.mo"):
        assert name in names, name
    tracked = subprocess.run(["git", "ls-files", "tests", "docs"], cwd=ROOT, capture_output=True,
                             text=True, check=True).stdout.split()
    assert not [n for n in tracked if n not in names]      # every test and every page of docs
    assert not [n for n in names if "__pycache__" in n or n.endswith((".pyc", ".sqlite3"))]
    assert "\nKeywords: " in pkg_info and "Classifier: Framework :: Twisted" in pkg_info


# ---- a fresh virtual environment -----------------------------------------------------------------
@pytest.mark.slow   # a new venv, `pip install .` of the project and its dependencies (a minute)
def test_pip_install_into_a_fresh_venv_and_the_programs_run(tmp_path: Path) -> None:
    """`pip install .` of a copy of the checkout into a new virtual environment (build isolation,
    the dependencies from the package index as a user gets them), then its console scripts, and
    `tichu-lobby` started with deploy/'s example configuration: it serves its greeting."""
    source = checkout_copy(tmp_path / "src")
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    bindir = venv / "bin"
    clean = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    done = subprocess.run([str(bindir / "python"), "-m", "pip", "install", "-q", str(source)],
                          capture_output=True, text=True, timeout=900, cwd=tmp_path, env=clean)
    assert done.returncode == 0, done.stdout + done.stderr
    for argv, expect in (([str(bindir / "tichu-lobby"), "--version"], f"tichu-lobby {lobby.__version__}"),
                         ([str(bindir / "tichu-bot"), "--help"], "usage: tichu-bot")):
        done = subprocess.run(argv, capture_output=True, text=True, timeout=120, cwd=tmp_path,
                              env=clean)
        assert done.returncode == 0, done.stderr
        assert expect in done.stdout
    # the installed package is the one that runs, not the checkout
    done = subprocess.run([str(bindir / "python"), "-c", "import protocol; print(protocol.__file__)"],
                          capture_output=True, text=True, timeout=120, cwd=tmp_path, env=clean)
    assert Path(done.stdout.strip()).is_relative_to(venv), done.stdout + done.stderr
    config = ROOT / "deploy" / "tichu-lobby.toml"
    argv = [str(bindir / "tichu-lobby"), "--config", str(config),
            "--db", str(tmp_path / "lobby.sqlite3"), "--port", "tcp:0:interface=127.0.0.1",
            "--metrics", "tcp:0:interface=127.0.0.1"]
    with ServerProcess(argv, tmp_path, env={"PYTHONPATH": ""}) as server:
        assert "Welcome to the Tichu lobby" in greeting(server.port)
        code, out = server.stop()
    assert code == 0, out
