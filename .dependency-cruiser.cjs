/**
 * Import rules that CI enforces (`npm run lint:deps`, part of `npm test`): no cycles, and no
 * module importing one from a higher layer. Layers, lowest first (docs/architecture.md, "Layers"):
 *
 *   lib ← contract ← config/errors ← graph, embeddings ← vector-index, store, llm, examples ← deps
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
  ['^src/vector-index/', '^src/store/', '^src/llm/', '^src/examples/'],
  ['^src/deps\\.ts$'],
  ['^src/tools/', '^src/chat/', '^src/agent/', '^src/mcp/', '^src/status/'],
  ['^src/routes/'],
  ['^src/app\\.ts$'],
  ['^src/ui/'],
  ['^src/server\\.ts$'],
  ['^src/runtime/', '^src/cli/'],
];

/**
 * Inside src/graph/ (src/graph/README.md), lowest first: how nodes are named and the index's
 * Neo4j statements, then access to the database, then the graph's shape and the search filters,
 * then the caller's Cypher.
 */
const GRAPH_LAYERS = [
  ['^src/graph/text/', '^src/graph/dialect\\.ts$', '^src/graph/dialect/'],
  ['^src/graph/access/'],
  ['^src/graph/shape/', '^src/graph/filters/'],
  ['^src/graph/cypher/'],
];

/**
 * Inside src/vector-index/ (src/vector-index/README.md): what an index is (index/) below three
 * jobs that never import one another: search/, build/ and sync/.
 */
const INDEX_JOBS = ['search', 'build', 'sync'];
const indexJobRules = INDEX_JOBS.map((job) => ({
  name: `vector-index-${job}-imports-another-job`,
  comment: `src/vector-index/${job}/ may import src/vector-index/index/ but no other job's folder`,
  severity: 'error',
  from: { path: `^src/vector-index/${job}/` },
  to: { path: INDEX_JOBS.filter((j) => j !== job).map((j) => `^src/vector-index/${j}/`) },
}));

/** One rule per layer of `layers`: its modules import nothing from the layers above it. */
const upwardRules = (layers, prefix) =>
  layers.slice(0, -1).map((paths, i) => ({
    name: `${prefix}-${i}-imports-upward`,
    comment: `${paths.join(', ')} must not import from a higher layer (see .dependency-cruiser.cjs)`,
    severity: 'error',
    from: { path: paths },
    to: { path: layers.slice(i + 1).flat() },
  }));

const layerRules = [...upwardRules(LAYERS, 'layer'), ...upwardRules(GRAPH_LAYERS, 'graph-layer')];

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
    {
      name: 'graph-file-outside-folders',
      comment: 'Every file of src/graph/ belongs to a folder of GRAPH_LAYERS (dialect.ts stays at the top).',
      severity: 'error',
      from: { path: '^src/graph/' },
      to: { path: '^src/graph/', pathNot: GRAPH_LAYERS.flat() },
    },
    {
      name: 'vector-index-index-imports-a-job',
      comment: 'src/vector-index/index/ is what every job shares: it imports none of them.',
      severity: 'error',
      from: { path: '^src/vector-index/index/' },
      to: { path: INDEX_JOBS.map((j) => `^src/vector-index/${j}/`) },
    },
    {
      name: 'vector-index-file-outside-folders',
      comment: 'Every file of src/vector-index/ belongs to index/ or a job folder.',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^src/vector-index/[^/]+$' },
    },
    ...indexJobRules,
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
