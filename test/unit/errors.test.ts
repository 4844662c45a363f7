import { HTTPException } from 'hono/http-exception';
import { describe, expect, it } from 'vitest';
import { AppError, DomainError, isDependencyDown, problemResponse, toAppError, toProblem } from '../../src/errors.js';
import { inRequest } from '../../src/routes/openapi.js';

describe('error mapping', () => {
  it('renders an AppError as an RFC 9457 problem', async () => {
    const err = new AppError(422, 'validation', 'invalid request: body.top_k', {
      errors: [{ path: 'body.top_k', message: 'too big' }],
    });
    expect(toProblem(err, '/vector/search')).toEqual({
      type: '/problems/validation',
      title: 'Unprocessable Content',
      status: 422,
      detail: 'invalid request: body.top_k',
      instance: '/vector/search',
      errors: [{ path: 'body.top_k', message: 'too big' }],
    });
    const res = problemResponse(new AppError(429, 'rate-limit-requests', 'slow down', { headers: { 'Retry-After': '30' } }));
    expect(res.status).toBe(429);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect(res.headers.get('retry-after')).toBe('30');
  });

  it('maps domain errors by kind, keeping code, message and fields', () => {
    const statuses = (['invalid', 'not-found', 'conflict', 'unavailable', 'failed'] as const).map(
      (kind) => toAppError(new DomainError(kind, 'internal', 'm')).status,
    );
    expect(statuses).toEqual([422, 404, 409, 503, 500]);
    expect(toAppError(new DomainError('not-found', 'unknown-graph', 'no graph'))).toMatchObject({
      code: 'unknown-graph',
      message: 'no graph',
    });
  });

  it('maps Hono HTTP exceptions by status', () => {
    const bad = toAppError(new HTTPException(400, { message: 'Malformed JSON in request body' }));
    expect([bad.status, bad.code, bad.message]).toEqual([400, 'bad-request', 'Malformed JSON in request body']);
    expect(toAppError(new HTTPException(413)).status).toBe(413);
  });

  it('hides unknown faults behind a bare 500', () => {
    const err = toAppError(new TypeError('secret internals at /srv/app.js:12'));
    expect(err.status).toBe(500);
    const body = JSON.stringify(toProblem(err));
    expect(body).not.toContain('secret');
    expect(body).not.toContain('stack');
  });

  it('recognises a dependency that is down as 503', () => {
    const neo = Object.assign(new Error('Could not perform discovery'), { code: 'ServiceUnavailable' });
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' });
    expect(isDependencyDown(neo)).toBe(true);
    expect(isDependencyDown(refused)).toBe(true);
    expect(isDependencyDown(new Error('syntax error'))).toBe(false);
    expect(toAppError(refused).status).toBe(503);
  });

  it('recognises a Redis Cluster that is down or lost a slot as a dependency down, 503', () => {
    const down = Object.assign(new Error('CLUSTERDOWN The cluster is down'), { name: 'ReplyError' });
    const allFailed = Object.assign(new Error('Failed to refresh slots cache.'), { name: 'ClusterAllFailedError' });
    for (const err of [down, allFailed, new Error("Cluster isn't ready and enableOfflineQueue options is false")]) {
      expect(isDependencyDown(err)).toBe(true);
      expect(toAppError(err).status).toBe(503);
    }
  });
});

describe('inRequest', () => {
  it("maps a lower layer's field names to request paths and passes other errors through", () => {
    const err = new DomainError('invalid', 'validation', 'bad', {
      errors: [
        { path: 'topK', message: 'too big' },
        { path: 'other', message: 'x' },
      ],
    });
    const mapped = toAppError(inRequest(err, { topK: 'body.top_k' }));
    expect(mapped).toMatchObject({ status: 422, code: 'validation', message: 'bad' });
    expect(mapped.errors).toEqual([
      { path: 'body.top_k', message: 'too big' },
      { path: 'other', message: 'x' },
    ]);
    const plain = new Error('boom');
    expect(inRequest(plain, { topK: 'body.top_k' })).toBe(plain);
  });
});
