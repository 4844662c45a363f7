/**
 * What an outside agent needs besides the two tools: the graph's skeleton as a resource
 * (`graph://<graph>/schema`: labels with counts and their properties in order of use, value
 * kinds of numbers and dates stored as strings, common values of categories, relationship
 * patterns with their properties; bounded by `SKELETON_MAX_CHARS`; index internals left out,
 * as the chat agent's prompt has it), the graph's examples as a resource (`graph://<graph>/examples`:
 * questions and the Cypher that answers them, src/examples/) and a prompt that says how to use
 * `vector_search` and `graph_query` together, with the examples closest to its question when the
 * graph has any (without, its text is what it was).
 */
import { type McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { AppDeps } from '../deps.js';
import { examplesBlock, formatExample } from '../examples/prompt.js';

/** What the resource and the prompt read. */
export type McpContextDeps = Pick<AppDeps, 'config' | 'graph' | 'skeleton' | 'examples'>;

/** The examples resource's URI for `graph`. */
export const examplesUri = (graph: string) => `graph://${encodeURIComponent(graph)}/examples`;

/** Tokens of examples the prompt carries at most (an outside agent's window is unknown; a few examples fit any). */
const PROMPT_EXAMPLE_TOKENS = 2_000;

/** The schema resource's URI for `graph`. */
export const schemaUri = (graph: string) => `graph://${encodeURIComponent(graph)}/schema`;

const HOW_TO = (graph: string) =>
  [
    `You answer questions about the Neo4j graph "${graph}" with two read-only tools.`,
    `1. Read the resource ${schemaUri(graph)} first: it lists the labels, relationship patterns and properties you can use in Cypher.`,
    '2. Call vector_search with the question (or the names in it) to find the nodes it is about; each result has a dbId, labels, a score and some of its relationships.',
    '3. Call graph_query to go from those nodes to the answer: anchor on them with `MATCH (n) WHERE id(n) = $id`, follow relationships, count, filter. Pass values as parameters, aggregate, and add LIMIT; results are capped.',
    '4. If a query fails, read the error, fix the query and try again. An empty or all-zero result may come with notices saying what the graph holds instead (a name, a value, the type to convert to): fix the query as they say before concluding there is no answer. Answer from what the tools returned, and say when they did not contain the answer.',
  ].join('\n');

/**
 * The read of a resource of graph `{graph}`: the Markdown `read` gives for it, or, for a graph
 * the server does not have, where the configured graph's resource is (`uriOf`).
 */
function graphResource(deps: McpContextDeps, uriOf: (graph: string) => string, read: (graph: string) => Promise<string>) {
  const configured = deps.config.GRAPHDB_GRAPH;
  return async (uri: URL, { graph }: { graph?: string | string[] }) => {
    const name = decodeURIComponent(String(graph));
    const text = (await deps.graph.hasGraph(name).catch(() => false))
      ? await read(name)
      : `There is no graph "${name}" on this server; the configured one is "${configured}" (${uriOf(configured)}).`;
    return { contents: [{ uri: uri.href, mimeType: 'text/markdown', text }] };
  };
}

/** Registers the schema resource and the `answer-from-graph` prompt on `server`. */
export function registerGraphContext(server: McpServer, deps: McpContextDeps): void {
  const { config } = deps;
  server.registerResource(
    'graph-schema',
    new ResourceTemplate('graph://{graph}/schema', {
      list: async () => ({
        resources: [{ uri: schemaUri(config.GRAPHDB_GRAPH), name: `${config.GRAPHDB_GRAPH} schema`, mimeType: 'text/markdown' }],
      }),
    }),
    {
      title: 'Graph schema',
      description:
        'Labels with counts and properties (most used first, with value kinds and common values), relationship patterns with their properties, bounded in size.',
      mimeType: 'text/markdown',
    },
    graphResource(
      deps,
      schemaUri,
      async (name) =>
        (await deps.skeleton.current(name)) ?? 'The schema could not be read: the graph database is unavailable; try again shortly.',
    ),
  );
  server.registerPrompt(
    'answer-from-graph',
    {
      title: 'Answer a question from the graph',
      description: 'How to use vector_search and graph_query together to answer a question about the graph.',
      argsSchema: { question: z.string().optional().describe('The question to answer') },
    },
    async ({ question }) => {
      const graph = config.GRAPHDB_GRAPH;
      const closest = question && deps.examples && config.AGENT_EXAMPLES ? await deps.examples.closest(graph, question, Infinity) : [];
      const block = examplesBlock(closest, config.AGENT_EXAMPLES, PROMPT_EXAMPLE_TOKENS);
      const shown = block ? `\n\n${block.text}\n(More in ${examplesUri(graph)}.)` : '';
      const text = question ? `${HOW_TO(graph)}${shown}\n\nQuestion: ${question}` : HOW_TO(graph);
      return { messages: [{ role: 'user', content: { type: 'text', text } }] };
    },
  );
  registerExamplesResource(server, deps);
}

/** The examples resource: every example of the graph that passed the checks, as Markdown. */
function registerExamplesResource(server: McpServer, deps: McpContextDeps): void {
  const { config, examples } = deps;
  if (!examples) return;
  server.registerResource(
    'graph-examples',
    new ResourceTemplate('graph://{graph}/examples', {
      // Listed only when the graph has examples: without, the list is what it was.
      list: async () => {
        const set = await examples.load(config.GRAPHDB_GRAPH).catch(() => null);
        const uri = examplesUri(config.GRAPHDB_GRAPH);
        return { resources: set?.examples.length ? [{ uri, name: `${config.GRAPHDB_GRAPH} examples`, mimeType: 'text/markdown' }] : [] };
      },
    }),
    {
      title: 'Example questions and Cypher',
      description:
        'Questions about the graph and the read-only Cypher that answers them, each checked against the graph; adapt them in graph_query.',
      mimeType: 'text/markdown',
    },
    graphResource(deps, examplesUri, async (name) => {
      const set = await examples.load(name).catch(() => null);
      if (!set) return 'The examples could not be checked: the graph database is unavailable; try again shortly.';
      return set.examples.length
        ? `# Examples for the graph "${name}"\n\n${set.examples.map(formatExample).join('\n\n')}`
        : `The graph "${name}" has no examples.`;
    }),
  );
}
