/**
 * An API-only process for the multi-process test: the app over the real deps (no worker),
 * configured from the environment (KVSTORE_URL, KV_PREFIX, …), on a free port. It prints
 * `listening <port>` once it accepts connections.
 */
import { serve } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { createApp } from '../../../src/app.js';
import { loadConfig } from '../../../src/config.js';
import { createDeps } from '../../../src/server.js';

const deps = createDeps(loadConfig(process.env), async () => null);
const server = serve({ fetch: createApp(deps).fetch, port: 0, hostname: '127.0.0.1' });
server.once('listening', () => console.log(`listening ${(server.address() as AddressInfo).port}`));
