/**
 * A scripted stand-in for the chat API, for the UI's rendering tests in the browser: it keeps
 * sessions in memory, answers messages with fixed events (so Markdown, hostile text, steps and
 * sources can be checked exactly), and can be told to answer 429 or 503, or to cut a stream
 * short. The suites against the real server are in `chat-ui.test.ts`.
 */
import { Hono } from 'hono';

/** A scripted job: the events its stream sends, `job_done`/`job_error` last. */
export interface FixtureJob {
  events: Array<{ type: string; data: Record<string, unknown> }>;
  /** Events the first stream connection sends before it drops (default: all). */
  cutAfter?: number;
  /** The stream sends this many events, then waits for `until` before the rest (an answer in progress). */
  hold?: { after: number; until: Promise<void> };
}

/** An agent job with five steps and one (hostile) source; `cutAfter` drops the first stream there. */
export function agentJob(answer: string, cutAfter?: number): FixtureJob {
  return {
    cutAfter,
    events: [
      { type: 'routing_started', data: {} },
      { type: 'routing_done', data: { route: 'agent', confidence: 0.82, reasoning: 'needs reasoning' } },
      { type: 'agent_step', data: { iteration: 1, model: 'qwen-agent' } },
      { type: 'tool_call', data: { tool: 'vector_search', args: { sentence: 'Ada' } } },
      { type: 'tool_result', data: { tool: 'vector_search', summary: '<img src=x onerror="window.__xss=4"> 1 node' } },
      {
        type: 'job_done',
        data: {
          session_id: 'x',
          answer,
          route_taken: 'agent',
          token_usage: { input_tokens: 10, output_tokens: 5 },
          sources: [
            {
              dbId: 7,
              displayName: '<b onmouseover="window.__xss=5">Ada</b>',
              text: '<script>window.__xss=6</script> Mathematician.',
              score: 0.9,
              labels: ['Person', 'E2eFixture'],
            },
          ],
        },
      },
    ],
  };
}

/** What a test can see and steer. */
export interface FixtureApi {
  app: Hono;
  /** Jobs answer in this order (each used once); the last one repeats. */
  jobs: FixtureJob[];
  /** Next `POST /chat/message` answers this status (429 with Retry-After, 503…), once. */
  failNext(status: number, headers?: Record<string, string>): void;
  /** Requests seen, as `METHOD path` plus the headers the UI server forwarded. */
  seen: Array<{ method: string; path: string; headers: Record<string, string> }>;
  /** What `GET /config` says of the hosted provider's key (default true). */
  hostedAvailable: boolean;
  /** What `GET /status` answers (the setup panel's report); null: 404, no panel (default). */
  status: ({ ready: boolean; checks: Array<Record<string, unknown>> } & Record<string, unknown>) | null;
}

interface Session {
  session_id: string;
  name: string | null;
  created_at: number;
  messages: Array<{ role: string; content: string; route: string | null; confidence: number | null; events: unknown[] }>;
}

const problem = (status: number, detail: string, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify({ type: 'about:blank', title: 'error', status, detail }), {
    status,
    headers: { 'content-type': 'application/problem+json', ...headers },
  });

/** Builds the fixture API; `anon` is the only anonymous ID it knows. */
export function createFixtureApi(anon = 'fixture-anon-id-0123456789'): FixtureApi {
  const app = new Hono();
  const sessions = new Map<string, Session>();
  const order: string[] = [];
  const jobs: FixtureJob[] = [];
  const running = new Map<string, { job: FixtureJob; session: Session; connections: number }>();
  const seen: FixtureApi['seen'] = [];
  let fail: { status: number; headers: Record<string, string> } | null = null;

  app.use(async (c, next) => {
    seen.push({
      method: c.req.method,
      path: c.req.path + (new URL(c.req.url).search || ''),
      headers: Object.fromEntries(c.req.raw.headers),
    });
    await next();
  });
  const known = (c: { req: { header(n: string): string | undefined } }) => c.req.header('x-anon-id') === anon;

  app.get('/chat/bootstrap-anon', (c) => {
    c.header('set-cookie', `anon_id=${anon}; Max-Age=259200; Path=/; HttpOnly; SameSite=Lax`);
    return c.redirect('http://localhost:8501/', 302);
  });
  app.get('/config', (c) =>
    c.json({
      llm_provider: 'local',
      router_provider: 'local',
      local_agent_model: 'qwen-agent',
      local_router_model: 'qwen-router',
      hosted_agent_model: 'big-hosted',
      hosted_router_model: 'small-hosted',
      hosted_available: api.hostedAvailable,
    }),
  );
  app.get('/status', (c) => (api.status ? c.json(api.status) : problem(404, 'no status here')));
  app.get('/chat/sessions', (c) => {
    if (c.req.query('anon_id') !== anon) return problem(401, 'unknown anonymous ID');
    return c.json({ sessions: order.filter((id) => sessions.has(id)) });
  });
  app.get('/chat/session/:id', (c) => {
    const s = sessions.get(c.req.param('id'));
    if (!s) return problem(404, 'no such session');
    const name = s.name ?? s.messages.find((m) => m.role === 'user')?.content.slice(0, 60) ?? 'New chat';
    return c.json({ session_id: s.session_id, name, created_at: s.created_at, messages: s.messages });
  });
  app.patch('/chat/session/:id', async (c) => {
    const s = sessions.get(c.req.param('id'));
    if (!s) return problem(404, 'no such session');
    s.name = String(((await c.req.json()) as { name: string }).name).trim();
    return c.json({ session_id: s.session_id, name: s.name });
  });
  app.delete('/chat/session/:id', (c) => {
    sessions.delete(c.req.param('id'));
    return c.body(null, 204);
  });
  app.post('/chat/message', async (c) => {
    if (!known(c)) return problem(401, 'unknown anonymous ID');
    if (fail) {
      const f = fail;
      fail = null;
      return problem(f.status, `scripted ${f.status}`, f.headers);
    }
    const body = (await c.req.json()) as { message: string; session_id?: string };
    let s = body.session_id ? sessions.get(body.session_id) : undefined;
    if (!s) {
      s = { session_id: crypto.randomUUID(), name: null, created_at: Date.now() / 1000, messages: [] };
      sessions.set(s.session_id, s);
      order.unshift(s.session_id);
    }
    s.messages.push({ role: 'user', content: body.message, route: null, confidence: null, events: [] });
    const job = jobs.length > 1 ? jobs.shift()! : jobs[0]!;
    const jobId = crypto.randomUUID();
    running.set(jobId, { job, session: s, connections: 0 });
    return c.json({ job_id: jobId, session_id: s.session_id, status: 'pending' }, 202);
  });
  app.get('/chat/job/:id/stream', (c) => {
    const run = running.get(c.req.param('id'));
    if (!run) return problem(404, 'unknown job');
    const from = Number(c.req.header('last-event-id') ?? 0);
    const first = run.connections++ === 0;
    const upTo = first && run.job.cutAfter !== undefined ? run.job.cutAfter : run.job.events.length;
    const frames = run.job.events.map((ev, i) =>
      i + 1 > from && i < upTo ? `id: ${i + 1}\nevent: ${ev.type}\ndata: ${JSON.stringify(ev.data)}\n\n` : '',
    );
    const record = () => {
      if (upTo < run.job.events.length) return;
      const done = run.job.events.at(-1)!;
      if (!run.session.messages.some((m, i) => i === run.session.messages.length - 1 && m.role === 'assistant')) {
        run.session.messages.push({
          role: 'assistant',
          content: String(done.data.answer ?? ''),
          route: String(done.data.route_taken ?? 'agent'),
          confidence: 0.9,
          events: run.job.events,
        });
      }
    };
    const hold = run.job.hold;
    const headers = { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' };
    if (!hold) {
      record();
      return new Response(frames.join(''), { headers });
    }
    const body = new ReadableStream<Uint8Array>({
      async start(ctl) {
        const enc = new TextEncoder();
        ctl.enqueue(enc.encode(frames.slice(0, hold.after).join('')));
        await hold.until;
        record();
        ctl.enqueue(enc.encode(frames.slice(hold.after).join('')));
        ctl.close();
      },
    });
    return new Response(body, { headers });
  });

  const api: FixtureApi = {
    app,
    jobs,
    seen,
    hostedAvailable: true,
    status: null,
    failNext: (status, headers = {}) => void (fail = { status, headers }),
  };
  return api;
}
