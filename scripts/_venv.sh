# Shared by scripts/serve and scripts/test: make sure .venv exists and holds the project.
# scripts/serve needs only the runtime dependencies; the others get the dev tools too
# (TALON_EXTRAS overrides: "" for none, "dev" for the dev tools). Re-installs only when
# pyproject.toml changed since the last install or the extras asked for are missing.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
PY=${PYTHON:-python3}
if [ -z "${TALON_EXTRAS+set}" ]; then
  case "$(basename "$0")" in
    serve) TALON_EXTRAS="" ;;
    *) TALON_EXTRAS=dev ;;
  esac
fi
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
stamp=.venv/.talon-installed
hash="$(sha256sum pyproject.toml | cut -d' ' -f1)"
have="$(cat "$stamp" 2>/dev/null || true)"
# A .venv that already has the dev tools serves as well.
if [ "$have" != "$hash-$TALON_EXTRAS" ] && { [ -n "$TALON_EXTRAS" ] || [ "${have%%-*}" != "$hash" ]; }; then
  .venv/bin/python -m pip install --quiet --upgrade pip
  .venv/bin/python -m pip install --quiet -e ".${TALON_EXTRAS:+[$TALON_EXTRAS]}"
  echo "$hash-$TALON_EXTRAS" > "$stamp"
fi
