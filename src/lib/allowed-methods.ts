/**
 * 405 support: which methods the app's route table answers on a path. Hono answers a known path
 * with an unrouted method as "not found"; RFC 9110 wants 405 with an `Allow` header instead.
 */

/** A route as Hono lists it in `app.routes`. */
export interface RouteEntry {
  method: string;
  path: string;
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** One Hono path segment (`users`, `:id`, `:file{a|b}`, `*`) as a regular expression. */
function segmentPattern(segment: string): string {
  if (segment === '*') return '.*';
  const param = /^:\w+(?:\{(.+)\})?(\?)?$/.exec(segment);
  if (!param) return escapeRegExp(segment);
  return `(?:${param[1] ?? '[^/]+'})${param[2] ?? ''}`;
}

/** Hono route path as an anchored regular expression. */
export function routePathRegex(path: string): RegExp {
  return new RegExp(`^${path.split('/').map(segmentPattern).join('/')}$`);
}

/**
 * Builds a lookup of the methods routed on a path, from a route table read on first use (so
 * routes added after the call still count). Catch-all (`ALL`) entries are middleware and do
 * not count; a GET route also answers HEAD.
 * @returns the sorted methods, empty when no route has that path.
 */
export function createAllowedMethods(routes: () => readonly RouteEntry[]): (path: string) => string[] {
  let table: { re: RegExp; method: string }[] | undefined;
  return (path) => {
    table ??= routes()
      .filter((r) => r.method !== 'ALL')
      .map((r) => ({ re: routePathRegex(r.path), method: r.method.toUpperCase() }));
    const methods = new Set(table.filter((r) => r.re.test(path)).map((r) => r.method));
    if (methods.has('GET')) methods.add('HEAD');
    return [...methods].sort();
  };
}
