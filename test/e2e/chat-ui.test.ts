/**
 * The chat page in headless Chromium against the real service: `node dist/node.js` (API and
 * UI), the local Neo4j and Redis, and the scripted model server. A first visit gets a cookie;
 * a lookup shows the answer and its sources, with hostile graph text inert; an agent question
 * shows its steps (or the job error while no agent is installed); sessions are renamed and
 * deleted; a rate-limited send says when to retry; a dropped stream resumes; a dead server is
 * explained. Screenshots of each state go to test-output/screenshots/.
 */
import { readFile } from 'node:fs/promises';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routerReply, startLlmServer, toolCallReply, type LlmServer, type ScriptedReply } from '../helpers/llm-server.js';
import { launchBrowser, pageWeight, screenshot } from './browser.js';
import { createGraphFixture, type GraphFixture } from './graph-fixture.js';
import { startE2eServer, type E2eServer } from './server.js';

const ROUTER_MODEL = 'e2e-router';
const AGENT_MODEL = 'e2e-agent';
const ADA_Q = 'Who was Ada Lovelace?';
const HOSTILE_TEXT =
  'Mathematician and writer. <script>window.__xss = 1</script> <img src=x onerror="window.__xss = 2"> [click me](javascript:window.__xss=3)';

let llm: LlmServer;
let graph: GraphFixture;
let server: E2eServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let route: { route: string; confidence: number } = { route: 'lookup', confidence: 0.95 };
const agentReplies: ScriptedReply[] = [];

beforeAll(async () => {
  llm = await startLlmServer();
  llm.setDefault((req) =>
    req.body?.model === ROUTER_MODEL
      ? routerReply(route.route, route.confidence)
      : (agentReplies.shift() ?? { content: 'Default agent answer.' }),
  );
  graph = await createGraphFixture([
    { name: 'Ada <img src=x onerror="window.__xss = 4">', text: HOSTILE_TEXT, question: ADA_Q },
    { name: 'Charles Babbage', text: 'Designer of the Analytical Engine.', question: 'Who designed the Analytical Engine?' },
  ]);
  server = await startE2eServer({
    LOCAL_LLM_BASE_URL: llm.url,
    LOCAL_LLM_ROUTER_MODEL: ROUTER_MODEL,
    LOCAL_LLM_AGENT_MODEL: AGENT_MODEL,
    EMBEDDING_MODEL: 'all-minilm',
    VECTOR_INDEX_NAME: graph.index,
    LLM_RETRY_DELAY_MS: '10',
  });
  browser = await launchBrowser();
  context = await browser.newContext({ viewport: { width: 1200, height: 860 } });
  page = await context.newPage();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await graph?.drop();
  await llm?.close();
});

const ask = async (p: Page, text: string) => {
  await p.fill('#composer-input', text);
  await p.press('#composer-input', 'Enter');
};

/** Waits until the last assistant message has an answer or an error. */
const settled = (p: Page) => p.waitForSelector('.msg.assistant:last-child:not([aria-busy])', { timeout: 30_000 });

describe('chat page against the real server', () => {
  it('first visit gets an httponly anon_id cookie and the selectors from /config', async () => {
    const weight = await pageWeight(page, server.uiUrl);
    console.log(`page weight (first load, real server): ${weight.total} bytes`, weight.byUrl);
    await page.waitForSelector('body[data-ready="true"]');
    const cookie = (await context.cookies(server.uiUrl)).find((c) => c.name === 'anon_id');
    expect(cookie?.httpOnly).toBe(true);
    expect(cookie?.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // The API knows it: the session list of this user is readable and empty.
    const res = await fetch(`${server.apiUrl}/chat/sessions?anon_id=${cookie!.value}`);
    expect(await res.json()).toEqual({ sessions: [] });
    expect(await page.inputValue('#agent-model')).toBe(AGENT_MODEL);
    expect(await page.inputValue('#router-model')).toBe(ROUTER_MODEL);
    expect(new URL(page.url()).origin).toBe(server.uiUrl);
    // About 50 KB compressed; zod (schemas) stays out of the page bundle.
    expect(weight.total).toBeLessThan(80_000);
    await screenshot(page, '01-first-visit');
  });

  it('a setup panel from /status says what is missing and the command for it, until the first answer', async () => {
    // Everything a lookup needs is there; the scripted model server does not list the models.
    const setup = page.locator('#setup');
    await setup.waitFor({ state: 'visible' });
    expect(await setup.locator('#setup-title').textContent()).toBe('Chat works; it can do more');
    const router = setup.locator('[data-check="router-model"]');
    expect(await router.textContent()).toContain('Router language model (optional)');
    expect(await router.locator('code').allTextContents()).toContain(`ollama pull ${ROUTER_MODEL}`);
    expect(await setup.locator('.setup-item.required').count()).toBe(0);
    await screenshot(page, '01b-setup-panel');
  });

  it('a lookup question shows the answer and its sources, with hostile graph text inert', async () => {
    route = { route: 'lookup', confidence: 0.95 };
    await ask(page, ADA_Q);
    expect(await page.locator('.msg.user .bubble').last().textContent()).toBe(ADA_Q);
    await settled(page);
    const msg = page.locator('.msg.assistant').last();
    expect(await msg.locator('.route-badge').textContent()).toBe('lookup · 0.95');
    const headings = await msg.locator('.answer h3').allTextContents();
    expect(headings[0]).toBe('Ada <img src=x onerror="window.__xss = 4">');
    expect(headings).toContain('Charles Babbage');
    expect(await msg.locator('.answer').textContent()).toContain('<script>window.__xss = 1</script>');
    const first = msg.locator('.sources .source').first();
    expect(await first.locator('.source-id').textContent()).toBe(`ID ${graph.ids['Ada <img src=x onerror="window.__xss = 4">']}`);
    expect(await first.locator('.label-chip').allTextContents()).toEqual([graph.label]);
    expect(await first.locator('.snippet').textContent()).toContain('Mathematician and writer.');
    // The answer already shows each node's text: the sources are folded, names only (defect 8).
    expect(await msg.locator('details.sources').getAttribute('open')).toBeNull();
    expect(await msg.locator('details.sources.names-only').count()).toBe(1);
    const state = await page.evaluate(() => ({
      xss: (window as unknown as { __xss?: number }).__xss,
      scripts: document.querySelectorAll('#messages script, #messages img').length,
      handlers: document.querySelectorAll('#messages [onerror]').length,
      jsLinks: [...document.querySelectorAll('#messages a')].filter((a) => /^javascript:/i.test(a.getAttribute('href') ?? '')).length,
    }));
    expect(state).toEqual({ xss: undefined, scripts: 0, handlers: 0, jsLinks: 0 });
    // The first answer arrived: the optional setup items step aside.
    await page.locator('#setup').waitFor({ state: 'hidden' });
    await screenshot(page, '02-lookup-answer-hostile-text-inert');
  });

  it("a source card opens to the node's properties from the graph, and the Graph button draws the sources", async () => {
    const msg = page.locator('.msg.assistant').last();
    const first = msg.locator('.sources .source').first();
    // A lookup answer's sources are folded (the answer shows the texts): open the list first.
    await msg.locator('details.sources > summary').click();
    await first.locator('summary').focus();
    await page.keyboard.press('Enter');
    await first.locator('.props').waitFor();
    expect(await first.locator('.props dt').allTextContents()).toEqual(['name', 'text']);
    expect(await first.locator('.props dd').first().textContent()).toBe('Ada <img src=x onerror="window.__xss = 4">');
    expect(await first.locator('.source-details img').count()).toBe(0);
    await msg.locator('.graph-open').click();
    await page.waitForSelector('#graph-dialog[open] .graph-canvas canvas');
    expect(await page.locator('#graph-dialog .graph-node-list li').count()).toBe(2);
    await screenshot(page, '02b-lookup-source-card-and-graph');
    await page.keyboard.press('Escape');
  });

  it('an agent question shows its steps live, folded once the answer (or the job error) is there', async () => {
    route = { route: 'agent', confidence: 0.88 };
    agentReplies.push(toolCallReply({ name: 'get_node_labels', arguments: {} }), {
      content: '## Summary\n\n| label | meaning |\n|---|---|\n| Person | a person |\n\nDone.',
      latencyMs: 1500,
    });
    await ask(page, 'Explain how the people in the graph are connected');
    const msg = page.locator('.msg.assistant').last();
    await msg.locator('.step').nth(1).waitFor({ state: 'attached' });
    if ((await msg.getAttribute('aria-busy')) === 'true') {
      // Still working (the scripted model answers after 1.5 s): the steps are open meanwhile.
      expect(await msg.locator('details.steps').getAttribute('open')).toBe('');
      await screenshot(page, '03-agent-live-progress');
    }
    await settled(page);
    const steps = await msg.locator('.step').allTextContents();
    expect(steps.slice(0, 2)).toEqual(['Routing the question…', 'Route: agent (confidence 0.88) — scripted']);
    expect(await msg.locator('details.steps').getAttribute('open')).toBeNull();
    if (await msg.locator('.error').count()) {
      // No agent is installed on this server yet: the job fails with a clear message.
      expect(await msg.locator('.error').textContent()).toContain('The answer failed: the agent is not available');
      await screenshot(page, '04-agent-job-error');
      agentReplies.length = 0;
      return;
    }
    expect(steps).toContain(`Step 1: asking ${AGENT_MODEL}`);
    expect(steps.some((s) => s.startsWith('Tool call: get_node_labels('))).toBe(true);
    expect(steps.some((s) => s.startsWith('Result of get_node_labels: '))).toBe(true);
    expect(await msg.locator('.answer table td').first().textContent()).toBe('Person');
    await msg.locator('details.steps summary').click();
    expect(await msg.locator('details.steps').getAttribute('open')).toBe('');
    await screenshot(page, '04-agent-answer-steps-reopened');
  });

  it('Send becomes Stop while an answer is written; Stop ends it and Send comes back', async () => {
    route = { route: 'agent', confidence: 0.9 };
    agentReplies.push({ content: 'An answer nobody waits for.', latencyMs: 8_000 });
    await ask(page, 'Take your time with this one');
    const send = page.locator('#send');
    await page.waitForFunction(() => document.querySelector('#send')?.textContent === 'Stop');
    expect(await send.getAttribute('aria-label')).toBe('Stop the answer');
    // Enter in the composer does not stop (nor send) while the answer runs.
    await page.fill('#composer-input', 'not yet');
    await page.press('#composer-input', 'Enter');
    expect(await page.locator('.msg.user').last().textContent()).toContain('Take your time with this one');
    await screenshot(page, '04b-stop-button');
    const started = Date.now();
    await send.click();
    await settled(page);
    expect(Date.now() - started).toBeLessThan(5_000);
    const msg = page.locator('.msg.assistant').last();
    expect(await msg.locator('.error').textContent()).toContain('You stopped this answer.');
    await page.waitForFunction(() => document.querySelector('#send')?.textContent === 'Send');
    await page.fill('#composer-input', '');
    agentReplies.length = 0;
  });

  it('resumes a dropped stream from the last event it saw', async () => {
    route = { route: 'lookup', confidence: 0.95 };
    const lastIds: Array<string | undefined> = [];
    await page.route('**/api/chat/job/*/stream', async (r) => {
      lastIds.push(r.request().headers()['last-event-id']);
      if (lastIds.length > 1) return r.continue();
      // The first connection delivers two events, then drops.
      const full = await (await r.fetch()).text();
      const events = full.split('\n\n').filter((b) => b.startsWith('id:'));
      await r.fulfill({ status: 200, headers: { 'content-type': 'text/event-stream' }, body: `${events.slice(0, 2).join('\n\n')}\n\n` });
    });
    await ask(page, 'Who designed the Analytical Engine?');
    await settled(page);
    await page.unroute('**/api/chat/job/*/stream');
    const msg = page.locator('.msg.assistant').last();
    expect(await msg.locator('.answer h3').first().textContent()).toBe('Charles Babbage');
    expect(lastIds).toEqual([undefined, '2']);
    expect(await msg.locator('.step').count()).toBe(2);
  });

  it('streams the answer text while the model writes it', async () => {
    route = { route: 'agent', confidence: 0.9 };
    const answer = 'The engine was designed by Charles Babbage, and Ada Lovelace wrote what many call the first program for it, in 1843.';
    agentReplies.push({ content: answer, pieceDelayMs: 120 });
    // A lively stream costs no reads of the job.
    const reads: string[] = [];
    const count = (r: { url(): string }) => {
      if (/\/api\/chat\/job\/[^/]+$/.test(new URL(r.url()).pathname)) reads.push(r.url());
    };
    page.on('request', count);
    await ask(page, 'Tell me about the engine, slowly');
    const msg = page.locator('.msg.assistant').last();
    await msg.locator('.answer.drafting').waitFor({ state: 'visible' });
    const partial = (await msg.locator('.answer').textContent()) ?? '';
    expect(await msg.getAttribute('aria-busy')).toBe('true');
    expect(partial.length).toBeGreaterThan(0);
    expect(answer.startsWith(partial.trim())).toBe(true);
    expect(partial.trim().length).toBeLessThan(answer.length);
    await screenshot(page, '04c-answer-streaming');
    await settled(page);
    expect((await msg.locator('.answer p').textContent())?.trim()).toBe(answer);
    expect(await msg.locator('.answer.drafting').count()).toBe(0);
    page.off('request', count);
    expect(reads).toEqual([]);
  });

  it('says so while a rate-limited model is asked again', async () => {
    route = { route: 'lookup', confidence: 0.95 };
    llm.fail(429, 2);
    await ask(page, ADA_Q);
    await settled(page);
    const steps = await page.locator('.msg.assistant').last().locator('.step').allTextContents();
    expect(steps.filter((t) => t.startsWith(`${ROUTER_MODEL} is busy (rate limited): asking again in 0.01 s`))).toEqual([
      `${ROUTER_MODEL} is busy (rate limited): asking again in 0.01 s (retry 1 of 3)`,
      `${ROUTER_MODEL} is busy (rate limited): asking again in 0.01 s (retry 2 of 3)`,
    ]);
  });

  it('a blocked stream still shows the answer within seconds, with its route and steps', async () => {
    route = { route: 'lookup', confidence: 0.95 };
    await page.route('**/api/chat/job/*/stream', (r) => r.abort());
    const started = Date.now();
    await ask(page, 'Who designed the Analytical Engine?');
    await settled(page);
    const took = Date.now() - started;
    await page.unroute('**/api/chat/job/*/stream');
    // It used to retry the stream six times (about 24 s) before reading the job.
    expect(took).toBeLessThan(6_000);
    const msg = page.locator('.msg.assistant').last();
    expect(await msg.locator('.answer h3').first().textContent()).toBe('Charles Babbage');
    expect(await msg.locator('.route-badge').textContent()).toBe('lookup · 0.95');
    expect(await msg.locator('.step').count()).toBe(2);
  });

  it('"Try again" and "Regenerate" replace the answer in place', async () => {
    route = { route: 'agent', confidence: 0.9 };
    agentReplies.push({ status: 500 });
    const users = page.locator('.msg.user');
    await ask(page, 'What did Ada write?');
    await settled(page);
    const count = await users.count();
    const last = page.locator('#messages > li').last();
    expect(await last.locator('.error').textContent()).toContain('The answer failed');
    agentReplies.push({ content: 'She wrote notes on the engine.' });
    await last.locator('button.retry').click();
    await settled(page);
    expect(await users.count()).toBe(count);
    expect((await page.locator('#messages > li').last().locator('.answer p').textContent())?.trim()).toBe('She wrote notes on the engine.');
    expect(await page.locator('#messages > li').last().locator('.error').count()).toBe(0);

    agentReplies.push({ content: 'She wrote the first published program.' });
    await page.locator('#messages > li').last().locator('button.regenerate').click();
    await settled(page);
    expect(await users.count()).toBe(count);
    expect((await page.locator('#messages > li').last().locator('.answer p').textContent())?.trim()).toBe(
      'She wrote the first published program.',
    );
    expect(await page.locator('button.regenerate').count()).toBe(1);
    await screenshot(page, '04d-regenerated');
    // The stored session has the new answer in place of the old one.
    const sid = new URL(page.url()).hash.slice('#s='.length);
    const stored = await (await fetch(`${server.apiUrl}/chat/session/${sid}`)).json();
    const contents = stored.messages.map((m: { content: string }) => m.content);
    expect(contents.slice(-2)).toEqual(['What did Ada write?', 'She wrote the first published program.']);
    expect(contents).not.toContain('She wrote notes on the engine.');
  });

  it('a second tab opened while an answer runs shows its question and Stop, and ends with one answer', async () => {
    route = { route: 'agent', confidence: 0.9 };
    agentReplies.push({ content: 'Worth the wait.', latencyMs: 2_500 });
    await ask(page, 'A slow question for two tabs');
    await page.waitForFunction(() => document.querySelector('#send')?.textContent === 'Stop');
    const second = await context.newPage();
    try {
      await second.goto(page.url());
      await second.waitForSelector('body[data-ready="true"]');
      await second.waitForSelector('.msg.assistant[aria-busy="true"]');
      expect(await second.locator('.msg.user .bubble').last().textContent()).toBe('A slow question for two tabs');
      expect(await second.textContent('#send')).toBe('Stop');
      await settled(second);
      expect((await second.locator('.msg.assistant .answer p').last().textContent())?.trim()).toBe('Worth the wait.');
      const roles = await second.locator('#messages > li').evaluateAll((els) => els.map((e) => (e.classList.contains('user') ? 'u' : 'a')));
      expect(roles.join('')).not.toContain('aa');
      await second.waitForFunction(() => document.querySelector('#send')?.textContent === 'Send');
    } finally {
      await second.close();
    }
    await settled(page);
  });

  it('finds the session by the text of an answer and exports it as the API stores it', async () => {
    const id = (await page.getAttribute('.session.current', 'data-session-id'))!;
    // "Mathematician" is only in a source's text, which the lookup answer quotes.
    await page.fill('#session-search', 'mathematician');
    expect(await page.locator('.session-list .session').count()).toBe(1);
    await page.fill('#session-search', 'zebra');
    expect(await page.locator('.session-list .session').count()).toBe(0);
    await page.press('#session-search', 'Escape');
    expect(await page.locator('.session-list .session').count()).toBe(1);
    const save = async (button: string) => {
      const [download] = await Promise.all([page.waitForEvent('download'), page.click(button)]);
      return readFile((await download.path())!, 'utf8');
    };
    const stored = await (await fetch(`${server.apiUrl}/chat/session/${id}`)).json();
    expect(JSON.parse(await save('#export-json'))).toEqual(stored);
    const md = await save('#export-md');
    expect(md.startsWith(`# ${stored.name}\n`)).toBe(true);
    expect(md).toContain(`## Question 1\n\n> ${ADA_Q}\n`);
    expect(md).toContain('- Charles Babbage\n');
    expect(md).toContain('- Ada \\<img src=x onerror="window.\\_\\_xss = 4"\\>\n');
  });

  it('renames and deletes a session', async () => {
    const current = page.locator('.session.current');
    const id = await current.getAttribute('data-session-id');
    await current.locator('.session-rename').click();
    await page.fill('#dialog-input', '  Analytical engines  ');
    await screenshot(page, '05-rename-dialog');
    // Enter in the field renames (it used to press the form's first button, Cancel).
    await page.press('#dialog-input', 'Enter');
    await page.waitForSelector('.session.current .session-open:text-is("Analytical engines")');
    expect(await page.textContent('#chat-title')).toBe('Analytical engines');
    const stored = await (await fetch(`${server.apiUrl}/chat/session/${id}`)).json();
    expect(stored.name).toBe('Analytical engines');
    // Reopening the session shows its full history with the steps folded.
    await page.reload();
    await page.waitForSelector('body[data-ready="true"]');
    await page.waitForSelector('.msg.assistant .answer h3');
    // (A question whose job failed is not part of the stored history.)
    expect(await page.locator('.msg.user .bubble').allTextContents()).toEqual(
      expect.arrayContaining([ADA_Q, 'Who designed the Analytical Engine?']),
    );
    expect(await page.locator('.msg.assistant details.steps').first().getAttribute('open')).toBeNull();
    await screenshot(page, '06-session-reopened');

    await page.locator('.session.current .session-delete').click();
    await page.click('#dialog-ok');
    await page.waitForSelector(`.session[data-session-id="${id}"]`, { state: 'detached' });
    expect(await page.textContent('#chat-title')).toBe('New chat');
    expect((await fetch(`${server.apiUrl}/chat/session/${id}`)).status).toBe(404);
    await screenshot(page, '07-after-delete');
  });

  it('a rate-limited send says when the user can try again', async () => {
    route = { route: 'lookup', confidence: 0.95 };
    const ctx = await browser.newContext({ viewport: { width: 1200, height: 860 } });
    const p = await ctx.newPage();
    try {
      await p.goto(server.uiUrl);
      await p.waitForSelector('body[data-ready="true"]');
      const anon = (await ctx.cookies(server.uiUrl)).find((c) => c.name === 'anon_id')!.value;
      for (let i = 0; i < 20; i++) {
        const res = await fetch(`${server.apiUrl}/chat/message`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-anon-id': anon },
          body: JSON.stringify({ message: `filler ${i}` }),
        });
        expect(res.status).toBe(202);
      }
      await ask(p, 'One more, please');
      await p.waitForSelector('#banner[data-kind="rate-limited"]:not([hidden])');
      expect(await p.textContent('#banner')).toMatch(/too many messages\. You can send again at .+\(in \d+ s\)/);
      expect(await p.isDisabled('#send')).toBe(true);
      expect(await p.inputValue('#composer-input')).toBe('One more, please');
      await screenshot(p, '08-rate-limited');
    } finally {
      await ctx.close();
    }
  });

  it('explains a server that has gone away', async () => {
    await page.goto(server.uiUrl);
    await page.waitForSelector('body[data-ready="true"]');
    await server.stop();
    await ask(page, 'Anyone there?');
    await page.waitForSelector('#banner:not([hidden])');
    expect(await page.textContent('#banner')).toContain('The chat server cannot be reached');
    expect(await page.inputValue('#composer-input')).toBe('Anyone there?');
    await screenshot(page, '09-server-down');
  });
});
