"""scripts/_venv.sh (sourced by scripts/serve and scripts/test) repairs a half-made virtual
environment -- made without pip, as `python3 -m venv` leaves it on Debian and Ubuntu without the
python3-venv package -- with ensurepip inside it, or, when that Python has no ensurepip either (as
Debian's own), says in one line what to install and exits with status 1."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from server_process import ROOT

SOURCE = f'source "{ROOT}/scripts/_venv.sh" && echo "venv ready: $venv"'
#: Debian's python3 without python3-venv: ensurepip is a stub that refuses
DEBIAN_ENSUREPIP = ('import sys\nsys.exit("ensurepip is disabled in Debian/Ubuntu for the system '
                    'python.\\n\\nInstall python3-venv")\n')


def base_python() -> str:
    return getattr(sys, "_base_executable", None) or sys.executable


def half_made(tmp_path: Path) -> Path:
    """A venv created without pip whose install stamp is current (so that the repair is all
    the script has to do: no project install from the network)."""
    venv = tmp_path / "venv"
    subprocess.run([base_python(), "-m", "venv", "--without-pip", str(venv)], check=True,
                   timeout=120)
    assert subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "--version"],
                          capture_output=True).returncode != 0
    stamp = subprocess.run(["bash", "-c", 'cat setup.cfg pyproject.toml lobby/__init__.py | cksum'],
                           cwd=ROOT, capture_output=True, text=True, check=True).stdout
    (venv / ".tichu-install-stamp").write_text(stamp)
    return venv


def source_venv_script(venv: Path, **env: str) -> subprocess.CompletedProcess[str]:
    environ = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH")}
    environ.update(TICHU_VENV=str(venv), PYTHON=base_python(), **env)
    return subprocess.run(["bash", "-c", SOURCE], capture_output=True, text=True, timeout=300,
                          env=environ, cwd=venv.parent)


@pytest.mark.slow   # ensurepip installs pip from its bundled wheel: some seconds
def test_a_venv_without_pip_is_repaired(tmp_path: Path) -> None:
    venv = half_made(tmp_path)
    done = source_venv_script(venv)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.strip() == f"venv ready: {venv}" and done.stderr == ""
    pip = subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "--version"],
                         capture_output=True, text=True)
    assert pip.returncode == 0 and str(venv) in pip.stdout


def test_without_ensurepip_one_line_says_what_to_install(tmp_path: Path) -> None:
    venv = half_made(tmp_path)
    stub = tmp_path / "debian" / "ensurepip"
    stub.mkdir(parents=True)
    (stub / "__init__.py").write_text(DEBIAN_ENSUREPIP)
    (stub / "__main__.py").write_text(DEBIAN_ENSUREPIP)
    done = source_venv_script(venv, PYTHONPATH=str(stub.parent))
    assert done.returncode == 1, done.stdout + done.stderr
    assert "venv ready" not in done.stdout
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr
    assert str(venv) in lines[0] and "no pip" in lines[0]
    assert "install python3-venv (Debian/Ubuntu: sudo apt install python3-venv" in lines[0]
