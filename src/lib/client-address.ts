/**
 * The network address of a request's client. Only the runtime entry knows it (Node's socket,
 * `Bun.serve`'s `requestIP`, `Deno.serve`'s `remoteAddr`), so the entry records it here, keyed
 * by the Request object itself: a client cannot forge it the way it can a header. Per-client
 * bounds (MCP sessions) read it; a request built in-process (tests, the UI proxy unless it
 * copies the address) has none.
 */
const addresses = new WeakMap<Request, string>();

/** Records the client address of `req` (runtime entries; the UI proxy for its forwarded copy). */
export function setClientAddress(req: Request, address: string | undefined): void {
  if (address) addresses.set(req, address);
}

/** The client address of `req`, or `unknown` when the runtime gave none. */
export function clientAddressOf(req: Request): string {
  return addresses.get(req) ?? 'unknown';
}
