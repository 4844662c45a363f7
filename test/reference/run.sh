#!/usr/bin/env bash
# Reference check against model2vec (npm run test:reference): makes a Python venv with model2vec
# from PyPI under .local/ (once), then runs the comparison suite with M2V_PYTHON pointing at it (arguments go to vitest).
set -euo pipefail
cd "$(dirname "$0")/../.."
VENV=${M2V_VENV:-.local/m2v-venv}
if ! "$VENV/bin/python" -c 'import model2vec' 2>/dev/null; then
  python3 -m venv "$VENV"
  "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check 'model2vec==0.10.0'
fi
M2V_PYTHON="$VENV/bin/python" exec npx vitest run test/integration/embeddings/reference.test.ts "$@"
