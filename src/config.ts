/**
 * Configuration: the environment parsed once with zod at start-up. A bad value stops the
 * process with one line naming the variable; modules receive the frozen result and never read
 * the environment themselves.
 */
import { z } from 'zod';
import { DEFAULT_MODEL, MODEL_NAMES, indexName } from './embeddings/registry.js';

const provider = z.enum(['local', 'hosted']);
const port = z
  .string()
  .regex(/^\d+$/, 'expected a port number 1..65535')
  .transform(Number)
  .pipe(z.number().int().min(1, 'expected a port number 1..65535').max(65535, 'expected a port number 1..65535'));
const url = z.url();
/** Empty strings count as unset, as they do in most `.env` files. */
const unsetIfEmpty = (v: unknown) => (v === '' ? undefined : v);

const EnvSchema = z.object({
  LLM_PROVIDER: provider.default('local'),
  ROUTER_PROVIDER: z.preprocess(unsetIfEmpty, provider.optional()),
  LOCAL_LLM_BASE_URL: url.default('http://localhost:11434/v1'),
  LOCAL_LLM_AGENT_MODEL: z.string().min(1).default('qwen2.5:7b'),
  LOCAL_LLM_ROUTER_MODEL: z.string().min(1).default('qwen2.5:1.5b'),
  HOSTED_LLM_BASE_URL: url.default('https://api.openai.com/v1'),
  HOSTED_LLM_API_KEY: z.string().default(''),
  HOSTED_LLM_AGENT_MODEL: z.string().min(1).default('gpt-4.1'),
  HOSTED_LLM_ROUTER_MODEL: z.string().min(1).default('gpt-4.1-mini'),
  RAG_CONFIDENCE_THRESHOLD: z.coerce.number().min(0).max(1).default(0.75),
  VECTOR_SEARCH_TOP_K: z.coerce.number().int().min(1).max(100).default(5),
  GRAPHDB_URL: z.string().min(1).default('localhost'),
  GRAPHDB_PORT: port.default(1234),
  GRAPHDB_GRAPH: z.string().min(1).default('neo4j'),
  GRAPHDB_USER: z.string().default(''),
  GRAPHDB_PASSWORD: z.string().default(''),
  EMBEDDING_MODEL: z.enum(MODEL_NAMES as [string, ...string[]]).default(DEFAULT_MODEL),
  VECTOR_INDEX_NAME: z.preprocess(unsetIfEmpty, z.string().optional()),
  KVSTORE_URL: z
    .string()
    .regex(/^(valkeys?|rediss?):\/\//, 'expected a valkey://, valkeys://, redis:// or rediss:// URL')
    .default('valkey://localhost:6379/0'),
  PORT: port.default(8000),
  UI_PORT: port.default(8501),
  UI_URL: url.default('http://localhost:8501/'),
  DATA_DIR: z.string().min(1).default('./data'),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
  /** Largest accepted request body in bytes. */
  MAX_BODY_BYTES: z.coerce.number().int().min(1024).default(1_048_576),
});

type Env = z.infer<typeof EnvSchema>;

/** The parsed configuration: every variable, defaults applied, derived values filled in. */
export type Config = Readonly<
  Omit<Env, 'ROUTER_PROVIDER' | 'VECTOR_INDEX_NAME'> & {
    ROUTER_PROVIDER: Env['LLM_PROVIDER'];
    VECTOR_INDEX_NAME: string;
  }
>;

/** Thrown by {@link loadConfig}; its message is the one line to print. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

/**
 * Parses an environment (e.g. `process.env`) into a frozen {@link Config}.
 * @throws ConfigError naming the first bad variable and what is wrong with it.
 */
export function loadConfig(env: Record<string, string | undefined>): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const name = String(issue.path[0] ?? 'environment');
    const got = env[name];
    throw new ConfigError(
      `config error: ${name}: ${issue.message}${got === undefined ? '' : ` (got ${JSON.stringify(got)})`}`,
    );
  }
  const e = parsed.data;
  const routerProvider = e.ROUTER_PROVIDER ?? e.LLM_PROVIDER;
  if ((e.LLM_PROVIDER === 'hosted' || routerProvider === 'hosted') && !e.HOSTED_LLM_API_KEY) {
    throw new ConfigError('config error: HOSTED_LLM_API_KEY: required when a provider is "hosted"');
  }
  return Object.freeze({
    ...e,
    ROUTER_PROVIDER: routerProvider,
    VECTOR_INDEX_NAME: e.VECTOR_INDEX_NAME ?? indexName(e.GRAPHDB_GRAPH, e.EMBEDDING_MODEL),
  });
}
