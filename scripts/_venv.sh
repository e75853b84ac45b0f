# Shared by scripts/serve and scripts/test: make sure .venv exists and holds the project.
# Re-installs only when pyproject.toml changed since the last install.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
stamp=.venv/.talon-installed
want="$(sha256sum pyproject.toml | cut -d' ' -f1)-${TALON_EXTRAS:-dev}"
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  .venv/bin/python -m pip install --quiet --upgrade pip
  .venv/bin/python -m pip install --quiet -e ".[${TALON_EXTRAS:-dev}]"
  echo "$want" > "$stamp"
fi
