/**
 * Import rules that CI enforces (`npm run lint:deps`, part of `npm test`): no cycles, and no
 * module importing one from a higher layer. Layers, lowest first (docs/architecture.md, "Layers"):
 *
 *   lib ← contract ← config/errors ← graph, embeddings ← vector-index, store, llm ← deps
 *     ← tools, chat, agent, mcp, status ← routes ← app ← ui ← server ← runtime, cli
 *
 * A module may import its own layer and any below it. Type-only imports count too: a type
 * from above is still knowledge of what is above.
 */
const LAYERS = [
  ['^src/lib/'],
  ['^src/contract/'],
  ['^src/config\\.ts$', '^src/errors\\.ts$'],
  ['^src/graph/', '^src/embeddings/'],
  ['^src/vector-index/', '^src/store/', '^src/llm/'],
  ['^src/deps\\.ts$'],
  ['^src/tools/', '^src/chat/', '^src/agent/', '^src/mcp/', '^src/status/'],
  ['^src/routes/'],
  ['^src/app\\.ts$'],
  ['^src/ui/'],
  ['^src/server\\.ts$'],
  ['^src/runtime/', '^src/cli/'],
];

const layerRules = LAYERS.slice(0, -1).map((paths, i) => ({
  name: `layer-${i}-imports-upward`,
  comment: `${paths.join(', ')} must not import from a higher layer (see .dependency-cruiser.cjs)`,
  severity: 'error',
  from: { path: paths },
  to: { path: LAYERS.slice(i + 1).flat() },
}));

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'Import cycles make load order matter and layers meaningless.',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'not-to-unlisted-layer',
      comment: 'Every folder of src/ belongs to a layer: add new ones to LAYERS.',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^src/', pathNot: LAYERS.flat() },
    },
    ...layerRules,
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|dist)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    parser: 'swc',
  },
};
