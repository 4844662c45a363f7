/** The agent's tool list as the model sees it, and argument handling that never throws. */
import { describe, expect, it } from 'vitest';
import { AGENT_TOOLS } from '../../../src/agent/handler.js';
import { buildSystemPrompt } from '../../../src/agent/prompt.js';
import { cut, parseArgs, runTool, toOpenAiTools, toolArgs, type ToolContext } from '../../../src/agent/tools.js';
import { DomainError } from '../../../src/errors.js';
import { ReadQueryError } from '../../../src/graph/cypher/read-query.js';

// Argument errors are caught before a tool touches its context.
const ctx = {} as ToolContext;

describe('agent tools', () => {
  it('offers eight function tools with JSON Schemas and descriptions', () => {
    const tools = toOpenAiTools(AGENT_TOOLS);
    expect(tools.map((t) => t.function.name)).toEqual([
      'get_graph_overview',
      'vector_search',
      'graph_query',
      'get_node_labels',
      'get_edge_types',
      'get_label_properties',
      'get_relationship_patterns',
      'get_sample_nodes',
    ]);
    for (const t of tools) {
      expect(t.type).toBe('function');
      expect(t.function.description!.length).toBeGreaterThan(60);
      expect(t.function.parameters).toMatchObject({ type: 'object' });
      expect(t.function.parameters).not.toHaveProperty('$schema');
    }
    const byName = Object.fromEntries(tools.map((t) => [t.function.name, t.function.parameters as any]));
    expect(byName.vector_search.required).toEqual(['query']);
    expect(byName.vector_search.properties.top_k).toMatchObject({ type: 'integer', minimum: 1, maximum: 100 });
    expect(byName.graph_query.required).toEqual(['cypher_query']);
    expect(byName.get_sample_nodes.properties.limit).toMatchObject({ type: 'integer', minimum: 1, maximum: 10 });
    expect(byName.get_label_properties.required).toEqual(['label']);
  });

  it('turns bad calls into "Tool error:" text', async () => {
    const r1 = await runTool(AGENT_TOOLS, 'graph_query', '{}', ctx);
    expect(r1).toMatchObject({
      ok: false,
      text: 'Tool error: invalid arguments for graph_query: cypher_query: Invalid input: expected string, received undefined',
    });
    const r2 = await runTool(AGENT_TOOLS, 'get_sample_nodes', '{"label": "X", "limit": 0.5}', ctx);
    expect(r2.text).toBe('Tool error: invalid arguments for get_sample_nodes: limit: Invalid input: expected int, received number');
    const r3 = await runTool(AGENT_TOOLS, 'nope', '{}', ctx);
    expect(r3.text).toMatch(/^Tool error: unknown tool "nope"/);
    const r4 = await runTool(AGENT_TOOLS, 'vector_search', '[1', ctx);
    expect(r4.text).toBe('Tool error: the arguments are not valid JSON: [1');
    // A tool that fails inside (here: no searcher in the context) is caught too.
    const r5 = await runTool(AGENT_TOOLS, 'vector_search', '{"query": "x"}', ctx);
    expect(r5.text).toMatch(/^Tool error: /);
    expect(r5.summary.length).toBeLessThanOrEqual(200);
    // What the call asked was wrong: the same call fails the same way. An unknown failure may pass.
    for (const r of [r1, r2, r3, r4]) expect(r.transient).toBeUndefined();
    expect(r5.transient).toBe(true);
  });

  it('reads a call as its tool does, so a default given or left out is the same call', () => {
    expect(toolArgs(AGENT_TOOLS, 'get_graph_overview', {})).toEqual({ refresh: false });
    expect(toolArgs(AGENT_TOOLS, 'get_graph_overview', { refresh: false })).toEqual({ refresh: false });
    expect(toolArgs(AGENT_TOOLS, 'get_graph_overview', { refresh: 'yes' })).toEqual({ refresh: 'yes' });
    expect(toolArgs(AGENT_TOOLS, 'nope', { a: 1 })).toEqual({ a: 1 });
  });

  it('marks failures of the moment as transient: the database down, busy or slow', async () => {
    const failing = (err: Error) => [{ ...AGENT_TOOLS[0]!, invoke: () => Promise.reject(err) }];
    const name = AGENT_TOOLS[0]!.name;
    const kinds = ['timeout', 'unavailable', 'busy', 'cypher', 'refused'] as const;
    const results = await Promise.all(kinds.map((k) => runTool(failing(new ReadQueryError('x', k)), name, '{}', ctx)));
    expect(results.map((r) => r.transient ?? false)).toEqual([true, true, true, false, false]);
    const down = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ServiceUnavailable' });
    expect((await runTool(failing(down), name, '{}', ctx)).transient).toBe(true);
    expect((await runTool(failing(new DomainError('not-found', 'no-index', 'x')), name, '{}', ctx)).transient).toBeUndefined();
    expect((await runTool(failing(new DomainError('unavailable', 'unavailable', 'x')), name, '{}', ctx)).transient).toBe(true);
  });

  it('parses event args leniently and cuts summaries at 200 characters', () => {
    expect(parseArgs('{"a": 1}')).toEqual({ a: 1 });
    expect(parseArgs('')).toEqual({});
    expect(parseArgs('{oops')).toBe('{oops');
    expect(cut('a  b\n c')).toBe('a b c');
    expect(cut('x'.repeat(300))).toHaveLength(200);
    expect(cut('x'.repeat(300)).endsWith('…')).toBe(true);
  });
});

describe('system prompt', () => {
  it('includes the Cypher notes and the skeleton, or says to fetch the overview', () => {
    const withSkeleton = buildSystemPrompt({ graph: 'neo4j', skeleton: 'Graph "neo4j": 2 labels' });
    expect(withSkeleton).toContain('Cypher notes for this database (Neo4j 5');
    expect(withSkeleton).toContain('IS NOT NULL');
    expect(withSkeleton).toContain('Graph overview (computed at start-up');
    expect(withSkeleton.endsWith('Graph "neo4j": 2 labels')).toBe(true);
    const without = buildSystemPrompt({ graph: 'neo4j', skeleton: null });
    expect(without).toContain('Call get_graph_overview');
    expect(without).toContain('at most 32 steps');
  });
});
