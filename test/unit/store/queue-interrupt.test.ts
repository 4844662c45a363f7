/** A worker's queue read ends when it is interrupted, whatever reads came and went before it. */
import { describe, expect, it } from 'vitest';
import { createJobQueue } from '../../../src/store/queue.js';
import type { KvClient, KvStore } from '../../../src/store/redis.js';

/** A store whose blocking reads settle only when the test says so (`reads`, oldest first). */
function fakeStore() {
  const reads: { resolve: (v: string | null) => void; reject: (e: Error) => void }[] = [];
  const client = {
    blmove: () => new Promise<string | null>((resolve, reject) => reads.push({ resolve, reject })),
    disconnect: () => {},
  } as unknown as KvClient;
  const kv = { prefix: 't:', redis: {} as KvClient, blockingClient: () => client } as unknown as KvStore;
  return { kv, reads };
}

/** `p`'s outcome, or 'pending' if it has not settled within a few ms. */
const outcome = (p: Promise<unknown>) =>
  Promise.race([
    p.then(
      () => 'resolved',
      (e: Error) => e.message,
    ),
    new Promise((r) => setTimeout(() => r('pending'), 20)),
  ]);

describe('queue.interrupt', () => {
  it('ends the pending read, also after an earlier interrupted read settled late', async () => {
    const { kv, reads } = fakeStore();
    const queue = createJobQueue(kv);
    const first = queue.next('w', 5);
    queue.interrupt();
    expect(await outcome(first)).toBe('the queue read was interrupted');
    const second = queue.next('w', 5);
    // The first read's command settles only now (its client closed): it must not end the second's.
    reads[0]!.reject(new Error('Connection is closed.'));
    await new Promise((r) => setTimeout(r, 1));
    queue.interrupt();
    expect(await outcome(second)).toBe('the queue read was interrupted');
  });
});
