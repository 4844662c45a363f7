/**
 * A Neo4j driver whose queries are rewritten before they are sent, to make one node's read or
 * write fail the way a value the database refuses does; everything else passes through.
 */
import type { Driver } from 'neo4j-driver';

/** `real` with every query of `executeQuery` and of its sessions' `run` passed through `rewrite` first. */
export function rewritingDriver(real: Driver, rewrite: (cypher: string) => string): Driver {
  type Run = (cypher: string, ...rest: unknown[]) => unknown;
  return new Proxy(real, {
    get(target, p) {
      if (p === 'executeQuery') {
        const run = target.executeQuery.bind(target) as unknown as Run;
        return (cypher: string, ...rest: unknown[]) => run(rewrite(cypher), ...rest);
      }
      if (p === 'session')
        return (o: Parameters<Driver['session']>[0]) => {
          const s = target.session(o);
          const run = s.run.bind(s) as unknown as Run;
          s.run = ((cypher: string, ...rest: unknown[]) => run(rewrite(cypher), ...rest)) as typeof s.run;
          return s;
        };
      const v = Reflect.get(target, p);
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
}
