/**
 * How deep a JSON value nests, found without recursion: a value nested tens of thousands of
 * levels deep (cheap to send, and JSON.parse takes it) overflows the stack of every recursive
 * reader after it (JSON.stringify, the database driver's encoder, zod).
 */

/**
 * The path of the first list or object nested deeper than `limit` levels (the value itself is
 * level 1), or null when none is.
 */
export function pathDeeperThan(value: unknown, limit: number): (string | number)[] | null {
  const stack: { v: unknown; depth: number; path: (string | number)[] }[] = [{ v: value, depth: 1, path: [] }];
  while (stack.length) {
    const { v, depth, path } = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    if (depth > limit) return path;
    const entries: [string | number, unknown][] = Array.isArray(v) ? v.map((x, i) => [i, x]) : Object.entries(v);
    for (const [k, x] of entries) if (typeof x === 'object' && x !== null) stack.push({ v: x, depth: depth + 1, path: [...path, k] });
  }
  return null;
}
