# Multi-stage: build the bundle with dev dependencies, run it with production ones only.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
RUN npm install --no-audit --no-fund
COPY tsconfig.json tsup.config.ts ./
COPY scripts ./scripts
COPY src ./src
RUN npm run build

FROM node:20-bookworm-slim
ENV NODE_ENV=production HOST=0.0.0.0 PORT=8000 UI_PORT=8501 DATA_DIR=/app/data MODELS_DIR=/app/models
WORKDIR /app
# .npmrc skips onnxruntime-node's install step (a CUDA download); its CPU binaries ship in the package.
COPY package.json package-lock.json .npmrc ./
RUN npm install --omit=dev --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist ./dist
# Model files: run scripts/fetch-models before building, or mount a folder at /app/models.
COPY models ./models
RUN mkdir -p /app/data && chown -R node:node /app/data
USER node
EXPOSE 8000 8501
CMD ["node", "dist/node.js"]
