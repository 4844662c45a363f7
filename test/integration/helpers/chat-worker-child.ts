/**
 * A worker-only process for the recovery test: the chat worker with a fake vector searcher,
 * configured from the environment (KV_PREFIX, LOCAL_LLM_BASE_URL, WORKER_LEASE_MS, …). It
 * prints `ready <worker id>` once it takes jobs; the test SIGKILLs it mid-job.
 */
import { createLookupHandler } from '../../../src/chat/lookup.js';
import { createChatWorker } from '../../../src/chat/worker.js';
import { loadConfig } from '../../../src/config.js';
import { createLogger } from '../../../src/lib/log.js';
import { createLlmClients } from '../../../src/llm/clients.js';
import { createJobEventHub } from '../../../src/store/job-events.js';
import { createJobStore } from '../../../src/store/jobs.js';
import { createJobQueue } from '../../../src/store/queue.js';
import { createRateLimiter } from '../../../src/store/rate-limit.js';
import { createKvStore } from '../../../src/store/redis.js';
import { fakeSearcher } from './chat-fixtures.js';

const config = loadConfig(process.env);
const kv = createKvStore({ url: config.KVSTORE_URL, prefix: config.KV_PREFIX });
const worker = createChatWorker({
  queue: createJobQueue(kv),
  jobs: createJobStore(kv),
  limiter: createRateLimiter(kv),
  events: createJobEventHub(kv),
  config,
  log: createLogger('silent'),
  llm: createLlmClients(config),
  handlers: { lookup: createLookupHandler({ search: fakeSearcher(), model: config.EMBEDDING_MODEL, topK: 2 }) },
});
await worker.start();
console.log(`ready ${worker.id}`);
