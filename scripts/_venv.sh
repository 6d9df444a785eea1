# Sourced by scripts/serve and scripts/test: create or reuse .venv and install the project into it.
# Reinstalls only when setup.cfg or pyproject.toml changed since the last install.
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="${TICHU_VENV:-$root/.venv}"
py="${PYTHON:-python3}"
if [ ! -x "$venv/bin/python" ]; then
  "$py" -m venv "$venv" || { echo "could not create a virtual environment in $venv" >&2; exit 1; }
fi
stamp="$venv/.tichu-install-stamp"
want="$(cat "$root/setup.cfg" "$root/pyproject.toml" | cksum)"
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  "$venv/bin/python" -m pip install -q --upgrade pip >/dev/null 2>&1 || true
  "$venv/bin/python" -m pip install -q -e "$root[test]" || { echo "installing the project into $venv failed" >&2; exit 1; }
  echo "$want" > "$stamp"
fi
