/**
 * Shutting down while Redis is away never hangs: a worker's pending queue read ends when the
 * worker stops taking jobs, and the store's clients close, even while they are between
 * reconnection attempts (where a queued command, QUIT included, would wait forever).
 */
import { expect, it } from 'vitest';
import { createJobQueue } from '../../../src/store/queue.js';
import { createKvStore } from '../../../src/store/redis.js';

/** What `p` did within `ms`. */
const within = (p: Promise<unknown>, ms: number) =>
  Promise.race([
    p.then(
      () => 'resolved',
      () => 'rejected',
    ),
    new Promise((r) => setTimeout(() => r('still pending'), ms)),
  ]);

// Nothing listens on port 1: every connection attempt fails and the clients keep retrying.
const away = () => createKvStore({ url: 'redis://127.0.0.1:1/0', prefix: 'test:away:' });

it("ends a worker's pending queue read when it is interrupted", async () => {
  const kv = away();
  const queue = createJobQueue(kv);
  const read = queue.next('w1', 1);
  await new Promise((r) => setTimeout(r, 300)); // the read waits in the reconnecting client's queue
  queue.interrupt();
  expect(await within(read, 2_000)).toBe('rejected');
  expect(await within(kv.close(), 3_000)).toBe('resolved');
});

it('closes its clients, a blocking one among them, while they reconnect', async () => {
  const kv = away();
  void kv
    .blockingClient()
    .blmove('a', 'b', 'RIGHT', 'LEFT', 1)
    .catch(() => {});
  await new Promise((r) => setTimeout(r, 300));
  expect(await within(kv.close(), 3_000)).toBe('resolved');
});
