# Sourced by scripts/serve and scripts/test: create or reuse .venv and install the project into it
# (TICHU_VENV=DIR: another place; PYTHON=python3.12: another interpreter).
# Reinstalls only when setup.cfg, pyproject.toml or the version (lobby/__init__.py) changed since
# the last install (or TICHU_CONSTRAINTS=FILE, a pip constraints file the install obeys: scripts/floors).
# A half-made environment -- created without pip, as `python3 -m venv` leaves it on Debian and
# Ubuntu without the python3-venv package -- is repaired with `python -m ensurepip` inside it; when
# that Python has no ensurepip either, one line says what to install, and the exit status is 1.
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="${TICHU_VENV:-$root/.venv}"
py="${PYTHON:-python3}"
venv_hint="install python3-venv (Debian/Ubuntu: sudo apt install python3-venv; elsewhere a Python with ensurepip), then run this again"
if [ ! -x "$venv/bin/python" ]; then
  # (without ensurepip, `venv` fails after making bin/python; --without-pip then finishes it)
  "$py" -m venv "$venv" >/dev/null 2>&1 || "$py" -m venv --without-pip "$venv" >/dev/null 2>&1 || {
    echo "could not create a virtual environment in $venv with $py: $venv_hint" >&2; exit 1; }
fi
if ! "$venv/bin/python" -m pip --version >/dev/null 2>&1; then
  if ! "$venv/bin/python" -m ensurepip --upgrade --default-pip >/dev/null 2>&1 \
      || ! "$venv/bin/python" -m pip --version >/dev/null 2>&1; then
    echo "the virtual environment $venv has no pip, and its Python has no ensurepip to add it: $venv_hint" >&2
    exit 1
  fi
fi
stamp="$venv/.tichu-install-stamp"
constraints=()
if [ -n "${TICHU_CONSTRAINTS:-}" ]; then constraints=(-c "$TICHU_CONSTRAINTS"); fi
want="$(cat "$root/setup.cfg" "$root/pyproject.toml" "$root/lobby/__init__.py" ${TICHU_CONSTRAINTS:+"$TICHU_CONSTRAINTS"} | cksum)"
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  "$venv/bin/python" -m pip install -q --upgrade pip >/dev/null 2>&1 || true
  # editable, in setuptools' compat mode where it has it: the checkout is on sys.path, so that
  # Twisted finds twisted/plugins/tichu_lobby.py (`twist tichu-lobby`) as it does when installed
  "$venv/bin/python" -m pip install -q "${constraints[@]}" -e "$root[test,uvloop]" --config-settings editable_mode=compat 2>/dev/null \
    || "$venv/bin/python" -m pip install -q "${constraints[@]}" -e "$root[test,uvloop]" \
    || { echo "installing the project into $venv failed" >&2; exit 1; }
  echo "$want" > "$stamp"
fi
