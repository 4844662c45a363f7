/**
 * A `fetch` for the service's small outbound JSON calls (the embedding server), over
 * `node:http`/`node:https` with a keep-alive agent. Node's global `fetch` (undici behind WHATWG
 * streams) costs the API more CPU per call than this, and under load every millisecond the API
 * spends is taken from a CPU-bound model server on the same cores (docs/benchmarks.md, "The
 * embedding call over `node:http`"). Node only: the Bun and Deno entries keep their own fetch,
 * which is native there.
 *
 * It takes what the embedders send (a string body, plain headers, an `AbortSignal`) and hands
 * anything else to the global `fetch`, so callers cannot tell the difference.
 */
import http from 'node:http';
import https from 'node:https';

/** Options of {@link createNodeFetch}. */
export interface NodeFetchOptions {
  /** Sockets per host kept for concurrent calls (default 64); more wait in the agent's queue. */
  maxSockets?: number;
}

/**
 * A response whose body has been received whole: `text`, `json`, `arrayBuffer` and `blob` read
 * those bytes directly (its `body` stream is null). A body given to `Response` is read back
 * through a web stream, on every embedding call (docs/benchmarks.md, "Speed, where the time
 * over the floor goes").
 */
function readResponse(bytes: Buffer, init: ResponseInit): Response {
  const text = async () => bytes.toString('utf8');
  const copy = () => new Uint8Array(bytes).buffer;
  return Object.defineProperties(new Response(null, init), {
    text: { value: text },
    json: { value: async () => JSON.parse(await text()) as unknown },
    arrayBuffer: { value: async () => copy() },
    blob: { value: async () => new Blob([copy()]) },
  });
}

/** Builds the fetch; its agents keep idle connections open (closed by `destroy`). */
export function createNodeFetch(opts: NodeFetchOptions = {}): typeof fetch & { destroy(): void } {
  const agentOpts = { keepAlive: true, maxSockets: opts.maxSockets ?? 64 };
  const agents = { 'http:': new http.Agent(agentOpts), 'https:': new https.Agent(agentOpts) };

  const nodeFetch = (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    const simple = !(input instanceof Request) && (init.body == null || typeof init.body === 'string');
    const url = simple ? new URL(input as string | URL) : undefined;
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) return fetch(input, init);
    const client = url.protocol === 'https:' ? https : http;
    const headers = Object.fromEntries(new Headers(init.headers).entries());
    return new Promise<Response>((resolve, reject) => {
      const req = client.request(
        url,
        { method: init.method ?? 'GET', headers, agent: agents[url.protocol as 'http:'], signal: init.signal ?? undefined },
        (res) => {
          const parts: Buffer[] = [];
          res.on('data', (part: Buffer) => parts.push(part));
          res.on('error', reject);
          // A connection closed before the whole body came must not pass for a short answer.
          res.on('close', () => {
            if (!res.complete) reject(new Error(`connection to ${url.host} closed before the response ended`));
          });
          res.on('end', () => {
            const out = new Headers();
            for (const [name, value] of Object.entries(res.headers)) {
              for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value]) out.append(name, v);
            }
            const status = res.statusCode ?? 502;
            resolve(readResponse(Buffer.concat(parts), { status, statusText: res.statusMessage, headers: out }));
          });
        },
      );
      req.on('error', reject);
      req.end(init.body as string | undefined);
    });
  };
  return Object.assign(nodeFetch as typeof fetch, {
    destroy() {
      agents['http:'].destroy();
      agents['https:'].destroy();
    },
  });
}
