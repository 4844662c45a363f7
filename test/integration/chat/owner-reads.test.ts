/**
 * Who may read a session or job created under an identity (ANON_READS). Without production
 * settings, as the contract has it: a caller that sends no x-anon-id and holds the UUID. With
 * any production setting on (COOKIE_SECURE here): only the owner's identity; records created
 * without an identity stay readable by whoever holds their UUID.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../helpers/chat-harness.js';

let open: Harness;
let prod: Harness;
beforeAll(async () => {
  // No worker: the jobs stay pending, which is all a read needs.
  [open, prod] = await Promise.all([startHarness({ worker: false }), startHarness({ worker: false, env: { COOKIE_SECURE: 'true' } })]);
});
afterAll(() => Promise.all([open?.close(), prod?.close()]));

/** A fresh identity of `h` (the anon_id cookie value). */
const identity = async (h: Harness) => {
  const res = await h.app.request('/chat/bootstrap-anon');
  return /anon_id=([^;]+)/.exec(res.headers.get('set-cookie') ?? '')![1]!;
};

/** Statuses of every read of a job and its session, as `anon` (undefined: no x-anon-id). */
async function reads(h: Harness, ids: { job_id: string; session_id: string }, anon?: string) {
  const headers: Record<string, string> = anon ? { 'x-anon-id': anon } : {};
  const req = (path: string, init: RequestInit = {}) =>
    h.app.request(path, { ...init, headers: { ...headers, ...(init.headers as object) } });
  const job = await req(`/chat/job/${ids.job_id}`);
  const stream = await req(`/chat/job/${ids.job_id}/stream`);
  await stream.body?.cancel();
  const session = await req(`/chat/session/${ids.session_id}`);
  const rename = await req(`/chat/session/${ids.session_id}`, {
    method: 'PATCH',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'renamed' }),
  });
  return { job: job.status, stream: stream.status, session: session.status, rename: rename.status };
}

const ALL_OK = { job: 200, stream: 200, session: 200, rename: 200 };
const ALL_404 = { job: 404, stream: 404, session: 404, rename: 404 };

describe('without production settings (ANON_READS=open, the contract)', () => {
  it('a caller without x-anon-id reads an owned session and job by their UUIDs; another identity gets 404', async () => {
    const owner = await identity(open);
    const ids = await open.submit('whose is this?', { headers: { 'x-anon-id': owner } });
    expect(await reads(open, ids)).toEqual(ALL_OK);
    expect(await reads(open, ids, await identity(open))).toEqual(ALL_404);
    expect(await reads(open, ids, owner)).toEqual(ALL_OK);
    const config = (await (await open.app.request('/config')).json()) as { anon_reads: string };
    expect(config.anon_reads).toBe('open');
  });
});

describe('with a production setting on (ANON_READS=owner)', () => {
  it("an owned session and job need their owner's identity: no x-anon-id and another identity both get 404", async () => {
    const owner = await identity(prod);
    const ids = await prod.submit('whose is this?', { headers: { 'x-anon-id': owner } });
    expect(await reads(prod, ids)).toEqual(ALL_404);
    expect(await reads(prod, ids, await identity(prod))).toEqual(ALL_404);
    expect(await reads(prod, ids, owner)).toEqual(ALL_OK);
    // Deleting is refused alike, and the session is still there for its owner.
    const del = await prod.app.request(`/chat/session/${ids.session_id}`, { method: 'DELETE' });
    expect(del.status).toBe(404);
    expect((await prod.app.request(`/chat/session/${ids.session_id}`, { headers: { 'x-anon-id': owner } })).status).toBe(200);
  });

  it('a session and job created without an identity stay readable by whoever holds their UUIDs', async () => {
    const ids = await prod.submit('nobody owns this');
    expect(await reads(prod, ids)).toEqual(ALL_OK);
  });

  it('says so in GET /config', async () => {
    const config = (await (await prod.app.request('/config')).json()) as { anon_reads: string };
    expect(config.anon_reads).toBe('owner');
  });
});
