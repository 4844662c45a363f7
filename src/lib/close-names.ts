/**
 * "Did you mean": the existing names closest to a name a caller used but the graph lacks (a
 * label, relationship type or property key: in a query's notices and in a search filter).
 * Models misspell, pluralise, change case
 * and drop suffixes (`movie`, `Movies`, `titel`, `ACTED` for `ACTED_IN`); each of those is a
 * small edit once case and separators are ignored.
 */

/** Largest edit distance (after normalising) at which a name is still suggested. */
export const MAX_SUGGEST_DISTANCE = 3;

/** Lower case, letters and digits only: `ACTED_IN`, `actedIn` and `acted-in` compare equal. */
const norm = (s: string) => s.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');

/** A normalised name and its possible singulars: `movies` → movie, movy; `boxes` → boxe, box; `species` → specie, speci. */
function forms(s: string): string[] {
  const out = [s];
  if (s.length > 3 && s.endsWith('s')) out.push(s.slice(0, -1));
  if (s.length > 4 && s.endsWith('es')) out.push(s.slice(0, -2));
  if (s.length > 4 && s.endsWith('ies')) out.push(`${s.slice(0, -3)}y`);
  return out;
}

/** Optimal-string-alignment distance (Levenshtein plus adjacent swaps), stopping early above `max`. */
export function editDistance(a: string, b: string, max = Number.POSITIVE_INFINITY): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev2: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, prev2[j - 2]! + 1);
      row.push(d);
      best = Math.min(best, d);
    }
    if (best > max) return max + 1;
    prev2 = prev;
    prev = row;
  }
  return prev[b.length]!;
}

/**
 * How far `candidate` is from `wanted`: 0 when they differ only in case or separators, 0.5 when
 * only in a plural ending, else the edit distance of the normalised names (a candidate that
 * starts with the whole wanted name, `ACTED` → `ACTED_IN`, counts as one edit less).
 */
export function nameDistance(wanted: string, candidate: string): number {
  const a = norm(wanted);
  const b = norm(candidate);
  if (a === b) return wanted === candidate ? 0 : 0.1;
  const fb = forms(b);
  if (forms(a).some((f) => fb.includes(f))) return 0.5;
  const d = editDistance(a, b, MAX_SUGGEST_DISTANCE + 1);
  const prefix = a.length >= 3 && (b.startsWith(a) || a.startsWith(b));
  return prefix ? Math.max(1, d - 1) : d;
}

/**
 * The names among `candidates` closest to `wanted`, best first: at most `limit` (default 3),
 * none farther than {@link MAX_SUGGEST_DISTANCE}; ties keep the candidates' order (callers pass
 * them largest first, so the more common name wins).
 */
export function closeNames(wanted: string, candidates: Iterable<string>, limit = 3): string[] {
  const scored: Array<{ name: string; d: number; i: number }> = [];
  let i = 0;
  for (const name of candidates) {
    const d = nameDistance(wanted, name);
    if (name !== wanted && d <= MAX_SUGGEST_DISTANCE) scored.push({ name, d, i });
    i++;
  }
  return scored
    .sort((x, y) => x.d - y.d || x.i - y.i)
    .slice(0, limit)
    .map((s) => s.name);
}

/** {@link closeNames} as the tail of an error message: `close names: "a", "b"`, or `no close name`. */
export function closeNamesHint(wanted: string, candidates: Iterable<string>): string {
  const close = closeNames(wanted, candidates);
  return close.length ? `close names: ${close.map((n) => JSON.stringify(n)).join(', ')}` : 'no close name';
}
