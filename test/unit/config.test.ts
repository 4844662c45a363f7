import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { boltUrl } from '../../src/graph/access/driver.js';

describe('loadConfig', () => {
  it('keeps the development defaults open, and limits identity-less chat once a production setting is on', () => {
    const dev = loadConfig({});
    expect([dev.HOST, dev.ALLOWED_HOSTS, dev.CORS_ORIGINS, dev.ANON_LIMITS, dev.COOKIE_SECURE]).toEqual([
      '127.0.0.1',
      [],
      [],
      'none',
      false,
    ]);
    expect(loadConfig({ MCP_TOKEN: 't' }).ANON_LIMITS).toBe('address');
    expect(loadConfig({ CORS_ORIGINS: ' https://a.example , https://b.example ' }).CORS_ORIGINS).toEqual([
      'https://a.example',
      'https://b.example',
    ]);
    expect(loadConfig({ TRUST_PROXY: 'true', ANON_LIMITS: 'none' }).ANON_LIMITS).toBe('none');
    expect(() => loadConfig({ ANON_LIMITS: 'sometimes' })).toThrow(/ANON_LIMITS/);
  });

  it("keeps the contract's chat rate limits unless CHAT_RATE_LIMIT_* raise them", () => {
    const dev = loadConfig({});
    expect([dev.CHAT_RATE_LIMIT_REQUESTS, dev.CHAT_RATE_LIMIT_TOKENS]).toEqual([20, 500_000]);
    const raised = loadConfig({ CHAT_RATE_LIMIT_REQUESTS: '1000', CHAT_RATE_LIMIT_TOKENS: '5000000' });
    expect([raised.CHAT_RATE_LIMIT_REQUESTS, raised.CHAT_RATE_LIMIT_TOKENS]).toEqual([1000, 5_000_000]);
    expect(() => loadConfig({ CHAT_RATE_LIMIT_REQUESTS: '0' })).toThrow(/CHAT_RATE_LIMIT_REQUESTS/);
  });

  it('takes GRAPHDB_URL as a host or a Bolt URI, and names it when the scheme is not one', () => {
    expect(boltUrl(loadConfig({}).GRAPHDB_URL, 1234)).toBe('bolt://localhost:1234');
    for (const uri of ['neo4j+s://abc.databases.neo4j.io', 'neo4j://core1:7687', 'bolt+ssc://10.0.0.5:7687', 'bolt+s://db']) {
      expect(boltUrl(loadConfig({ GRAPHDB_URL: uri }).GRAPHDB_URL, 1234)).toBe(uri);
    }
    expect(() => loadConfig({ GRAPHDB_URL: 'http://localhost:7474' })).toThrow(/GRAPHDB_URL/);
  });

  it('applies the contract defaults', () => {
    const c = loadConfig({});
    expect(c.LLM_PROVIDER).toBe('local');
    expect(c.ROUTER_PROVIDER).toBe('local');
    expect(c.LOCAL_LLM_BASE_URL).toBe('http://localhost:11434/v1');
    expect(c.RAG_CONFIDENCE_THRESHOLD).toBe(0.75);
    expect(c.VECTOR_SEARCH_TOP_K).toBe(5);
    expect(c.GRAPHDB_URL).toBe('localhost');
    expect(c.GRAPHDB_PORT).toBe(1234);
    expect(c.EMBEDDING_MODEL).toBe('minishlab/potion-base-32M');
    expect(c.VECTOR_INDEX_NAME).toBe('neo4j_minishlab_potion_base_32M');
    expect(c.KVSTORE_URL).toBe('valkey://localhost:6379/0');
    expect(c.PORT).toBe(8000);
    expect(c.UI_PORT).toBe(8501);
    expect(c.UI_URL).toBe('http://localhost:8501/');
    expect(Object.isFrozen(c)).toBe(true);
  });

  it('takes a cluster of key-value stores by its seed nodes', () => {
    for (const url of ['redis+cluster://a:7000,b:7001', 'valkey+cluster://a', 'rediss+cluster://:pw@a:7000', 'valkeys+cluster://a:1']) {
      expect(loadConfig({ KVSTORE_URL: url }).KVSTORE_URL).toBe(url);
    }
  });

  it('lets the router inherit the agent provider', () => {
    const c = loadConfig({ LLM_PROVIDER: 'hosted', HOSTED_LLM_API_KEY: 'k' });
    expect(c.ROUTER_PROVIDER).toBe('hosted');
    expect(loadConfig({ ROUTER_PROVIDER: '' }).ROUTER_PROVIDER).toBe('local');
  });

  it('derives the index name from graph and model', () => {
    const c = loadConfig({ GRAPHDB_GRAPH: 'movies', EMBEDDING_MODEL: 'snowflake-arctic-embed:33m' });
    expect(c.VECTOR_INDEX_NAME).toBe('movies_snowflake_arctic_embed_33m');
  });

  it.each([
    [{ GRAPHDB_PORT: 'abc' }, 'GRAPHDB_PORT'],
    [{ GRAPHDB_PORT: '70000' }, 'GRAPHDB_PORT'],
    [{ PORT: '-1' }, 'PORT'],
    [{ LLM_PROVIDER: 'openai' }, 'LLM_PROVIDER'],
    [{ RAG_CONFIDENCE_THRESHOLD: '1.5' }, 'RAG_CONFIDENCE_THRESHOLD'],
    [{ VECTOR_SEARCH_TOP_K: '0' }, 'VECTOR_SEARCH_TOP_K'],
    [{ EMBEDDING_MODEL: 'bert' }, 'EMBEDDING_MODEL'],
    [{ KVSTORE_URL: 'http://x' }, 'KVSTORE_URL'],
    [{ UI_URL: 'not a url' }, 'UI_URL'],
    [{ LLM_PROVIDER: 'hosted' }, 'HOSTED_LLM_API_KEY'],
  ])('rejects %j naming %s in one line', (env, name) => {
    let err: unknown;
    try {
      loadConfig(env);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    const msg = (err as Error).message;
    expect(msg.startsWith(`config error: ${name}: `)).toBe(true);
    expect(msg).not.toContain('\n');
  });

  it('reads INDEX_PROPERTIES into own keys: a label named __proto__ or constructor stays a label', () => {
    const c = loadConfig({ INDEX_PROPERTIES: 'Movie = title, tagline ; __proto__=text;constructor=name' });
    expect(Object.keys(c.INDEX_PROPERTIES)).toEqual(['Movie', '__proto__', 'constructor']);
    expect(Object.getPrototypeOf(c.INDEX_PROPERTIES)).toBe(Object.prototype);
    expect(Object.entries(c.INDEX_PROPERTIES)).toEqual([
      ['Movie', ['title', 'tagline']],
      ['__proto__', ['text']],
      ['constructor', ['name']],
    ]);
    expect(() => loadConfig({ INDEX_PROPERTIES: 'Movie=' })).toThrow(/^config error: INDEX_PROPERTIES: expected Label=prop,prop/);
  });
});
