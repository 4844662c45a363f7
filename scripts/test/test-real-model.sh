#!/usr/bin/env bash
# `npm run test:real-model`: the chat end to end through a real OpenAI-compatible model server
# with real small models (not part of `npm test`). By default it sets up and starts
# llama-cpp-python's stock server (../shared/tools/llm-server/: the first run builds llama.cpp,
# ~16 minutes once) and runs test/real-model/ against SmolLM2-135M-Instruct, then Gemma 3 270M.
#
# Against another server (Ollama, vLLM, LM Studio, llama.cpp's llama-server, a hosted API):
#   REAL_LLM_BASE_URL=http://127.0.0.1:11434/v1 REAL_LLM_MODEL=qwen2.5:7b npm run test:real-model
#   (add REAL_LLM_API_KEY=… for a hosted API)
# Settings: REAL_LLM_MODELS="smollm2 gemma3" (which stock-server models), REAL_LLM_PORT (11435).
set -euo pipefail
cd "$(dirname "$0")/../.."
bash scripts/services/services.sh start
npm run --silent build

if [ -n "${REAL_LLM_BASE_URL:-}" ]; then
  REAL_LLM_MODEL=${REAL_LLM_MODEL:?set REAL_LLM_MODEL to the model to test} npx vitest run --config vitest.real-model.config.ts "$@"
  exit
fi

TOOLS=../shared/tools/llm-server
port=${REAL_LLM_PORT:-11435}
stop() { if [ -f ".local/llm-server-$port.pid" ]; then kill "$(cat ".local/llm-server-$port.pid")" 2>/dev/null || true; rm -f ".local/llm-server-$port.pid"; fi; }
trap stop EXIT
for model in ${REAL_LLM_MODELS:-smollm2 gemma3}; do
  stop
  echo "real-model: starting llama-cpp-python's server with $model on port $port (first run: builds llama.cpp, ~16 min)" >&2
  url=$(bash "$TOOLS/start.sh" "$port" "$model")
  REAL_LLM_BASE_URL=$url REAL_LLM_MODEL=$model REAL_LLM_STOCK=1 npx vitest run --config vitest.real-model.config.ts "$@"
done
