/**
 * Names close to a misspelt one, for messages such as `unknown label "pathway"; close names:
 * "Pathway"`: the same but for case, a plural or singular, one containing the other, or a
 * few edits apart.
 */

/** Edit distance of `a` and `b`: insertions, deletions, substitutions and swaps of neighbours (`Protien`) count one each. */
export function editDistance(a: string, b: string): number {
  let before: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) row[j] = Math.min(row[j]!, before[j - 2]! + 1);
    }
    [before, prev] = [prev, row];
  }
  return prev[b.length]!;
}

/** Lower case without a plural ending, so `Pathways`, `pathway` and `PATHWAY` meet. */
const stem = (s: string) => s.toLowerCase().replace(/(?<=\w{2})(es|s)$/, '');

/** How far `candidate` is from `name` (lower is closer), or null when it is not close. */
function closeness(name: string, candidate: string): number | null {
  const [a, b] = [name.toLowerCase(), candidate.toLowerCase()];
  if (a === b) return 0;
  if (stem(name) === stem(candidate)) return 0.5;
  const d = editDistance(a, b);
  if (d <= Math.max(1, Math.floor(Math.min(a.length, b.length) / 4))) return d;
  if (Math.min(a.length, b.length) >= 3 && (a.includes(b) || b.includes(a))) return 2.5;
  return null;
}

/** Up to `max` of `candidates` close to `name`, closest first (ties by name). */
export function closeNames(name: string, candidates: Iterable<string>, max = 5): string[] {
  const scored: [string, number][] = [];
  for (const c of candidates) {
    const s = c === name ? null : closeness(name, c);
    if (s !== null) scored.push([c, s]);
  }
  return scored
    .sort((x, y) => x[1] - y[1] || x[0].localeCompare(y[0]))
    .slice(0, max)
    .map(([c]) => c);
}
