/** Nodes left out of a build: counted, the first few named, reasons in one short line; value errors told from others. */
import { Neo4jError } from 'neo4j-driver';
import { describe, expect, it } from 'vitest';
import { createSkippedNodes, isValueError, SKIPPED_SHOWN } from '../../../../src/vector-index/index/skipped-nodes.js';

describe('skipped nodes', () => {
  it('counts every node, names the first few, and keeps a reason short and on one line', () => {
    const heard: string[] = [];
    const skipped = createSkippedNodes((n) => heard.push(n.nodeId));
    for (let i = 0; i < 8; i++) skipped.add(`n${i}`, new Error(`bad\nvalue ${'x'.repeat(i === 0 ? 5_000_000 : 3)}`));
    expect(skipped.state.count).toBe(8);
    expect(skipped.state.nodes.map((n) => n.nodeId)).toEqual(['n0', 'n1', 'n2', 'n3', 'n4'].slice(0, SKIPPED_SHOWN));
    expect(heard).toHaveLength(8);
    expect(skipped.state.nodes[0]!.reason.length).toBeLessThanOrEqual(200);
    expect(skipped.state.nodes[1]!.reason).toBe('bad value xxx');
  });

  it('blames a node only for an error its values caused', () => {
    const err = (code: string) => new Neo4jError('m', code, '50N42', 'error');
    expect(isValueError(err('Neo.ClientError.Statement.TypeError'))).toBe(true);
    expect(isValueError(err('Neo.ClientError.Statement.ArithmeticError'))).toBe(true);
    expect(isValueError(err('Neo.ClientError.Statement.SyntaxError'))).toBe(false);
    expect(isValueError(err('Neo.TransientError.General.DatabaseUnavailable'))).toBe(false);
    expect(isValueError(new TypeError('x'))).toBe(false);
  });
});
