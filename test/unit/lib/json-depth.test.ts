import { describe, expect, it } from 'vitest';
import { pathDeeperThan } from '../../../src/lib/json-depth.js';

describe('pathDeeperThan', () => {
  it('finds the first list or object past the limit, with its path, without recursion', () => {
    expect(pathDeeperThan({ a: [1, { b: 2 }] }, 3)).toBeNull();
    expect(pathDeeperThan({ a: [1, { b: [] }] }, 3)).toEqual(['a', 1, 'b']);
    expect(pathDeeperThan('text', 0)).toBeNull();
    const deep = JSON.parse(`${'['.repeat(100_000)}${']'.repeat(100_000)}`);
    expect(pathDeeperThan({ p: deep }, 33)?.length).toBe(33);
  });
});
