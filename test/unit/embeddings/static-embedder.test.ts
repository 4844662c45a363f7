/**
 * The embedder pool and the static (model2vec) path on the generated test models: registry
 * errors, missing files, loading once, vector properties, chunking with the real tokenizer.
 */
import { cpSync, rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { safetensors } from '../../../scripts/gen/gen-test-models.mjs';
import { loadConfig } from '../../../src/config.js';
import { createEmbedders, createEmbeddersFromConfig } from '../../../src/embeddings/embedders.js';
import { DomainError } from '../../../src/errors.js';
import { detectModelKind, nodeFileReader, type ModelFileReader } from '../../../src/embeddings/model-files.js';
import { readTensor } from '../../../src/embeddings/safetensors.js';
import { medianLength, truncateCodePoints } from '../../../src/embeddings/static-embedder.js';
import { isWordSeparable, loadTokenizer } from '../../../src/embeddings/tokenizer.js';
import { TEST_MODELS_DIR } from '../../helpers/models-setup.js';

const pool = createEmbedders({ modelsDir: TEST_MODELS_DIR, localBaseUrl: 'http://127.0.0.1:9' });
afterAll(() => pool.close());

const norm = (v: Float32Array) => Math.hypot(...v);
const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i]!, 0);

describe('embedder pool', () => {
  it('refuses a name outside the registry with 422 listing the valid names', async () => {
    const err = await pool.get('bert-base').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DomainError);
    expect((err as DomainError).kind).toBe('invalid');
    expect((err as DomainError).code).toBe('unknown-model');
    expect((err as DomainError).message).toContain('minishlab/potion-base-32M');
    expect((err as DomainError).message).toContain('all-minilm');
  });

  it('answers 503 naming the fetch command when the model files are missing', async () => {
    const empty = createEmbedders({ modelsDir: 'test-output/no-models', localBaseUrl: 'http://127.0.0.1:9' });
    const err = (await empty.get('minishlab/potion-multilingual-128M').catch((e: unknown) => e)) as DomainError;
    expect(err.kind).toBe('unavailable');
    expect(err.code).toBe('model-files-missing');
    expect(err.message).toContain('test-output/no-models/minishlab/potion-multilingual-128M');
    expect(err.message).toContain('run scripts/fetch-models minishlab/potion-multilingual-128M');
  });

  it('loads a model once and shares it between concurrent callers', async () => {
    let reads = 0;
    const counting: ModelFileReader = { read: (p) => (reads++, nodeFileReader.read(p)), exists: nodeFileReader.exists };
    const p = createEmbedders({ modelsDir: TEST_MODELS_DIR, localBaseUrl: 'http://127.0.0.1:9', files: counting });
    const [a, b] = await Promise.all([p.get('minishlab/potion-base-8M'), p.get('minishlab/potion-base-8M')]);
    const before = reads;
    expect(a).toBe(b);
    expect(await p.get('minishlab/potion-base-8M')).toBe(a);
    expect(reads).toBe(before);
    await p.close();
  });

  it('takes models folder and chunk sizes from config', async () => {
    const config = loadConfig({ MODELS_DIR: TEST_MODELS_DIR, CHUNK_TOKENS: '20', CHUNK_OVERLAP_TOKENS: '5' });
    expect(config.MODELS_DIR).toBe(TEST_MODELS_DIR);
    expect(loadConfig({}).MODELS_DIR).toBe('./models');
    const p = createEmbeddersFromConfig(config);
    const e = await p.get('minishlab/potion-base-8M');
    const chunks = e.chunk(Array.from({ length: 50 }, () => 'protein').join(' '));
    expect(chunks.map((c) => c.split(' ').length)).toEqual([20, 20, 20]);
    await p.close();
  });

  it('rejects a table whose width does not match the registry', async () => {
    const root = 'test-output/models-bad-dims';
    rmSync(root, { recursive: true, force: true });
    cpSync(`${TEST_MODELS_DIR}/minishlab/potion-base-8M`, `${root}/minishlab/potion-base-32M`, { recursive: true });
    const p = createEmbedders({ modelsDir: root, localBaseUrl: 'http://127.0.0.1:9' });
    const err = (await p.get('minishlab/potion-base-32M').catch((e: unknown) => e)) as DomainError;
    expect(err.kind).toBe('unavailable');
    expect(err.message).toContain('256 dimensions, the registry says 512');
    rmSync(root, { recursive: true, force: true });
  });
});

describe('static embedder', () => {
  it.each([
    ['minishlab/potion-base-8M', 256],
    ['minishlab/potion-base-32M', 512],
  ])('%s gives %i-dimension unit vectors, deterministic and batch-independent', async (name, dims) => {
    const e = await pool.get(name);
    expect(e.dimensions).toBe(dims);
    const texts = ['Insulin signaling in the liver', 'The quick brown fox', 'insulin SIGNALING in the liver!'];
    const vs = await e.embed(texts);
    for (const v of vs) {
      expect(v).toHaveLength(dims);
      expect(norm(v)).toBeCloseTo(1, 5);
    }
    const [again] = await e.embed([texts[0]!]);
    expect(Array.from(again!)).toEqual(Array.from(vs[0]!));
    // Lowercasing and punctuation barely move the vector; different words do.
    expect(dot(vs[0]!, vs[2]!)).toBeGreaterThan(dot(vs[0]!, vs[1]!));
  });

  it('tokenises whole texts when the tokenizer is not word-separable (SentencePiece style)', async () => {
    const dir = `${TEST_MODELS_DIR}/minishlab/potion-multilingual-128M`;
    const tok = await loadTokenizer(dir, nodeFileReader);
    expect(tok.wordSeparable).toBe(false);
    const e = await pool.get('minishlab/potion-multilingual-128M');
    const [v] = await e.embed(['Die Straße über dem café in 東京']);
    expect(v).toHaveLength(256);
    expect(norm(v!)).toBeCloseTo(1, 5);
    const chunks = e.chunk(Array.from({ length: 300 }, () => 'und').join(' '));
    for (const c of chunks) expect(tok.encode(c).length).toBeLessThanOrEqual(256);
  });

  it('gives a zero vector for a text without known tokens', async () => {
    const e = await pool.get('minishlab/potion-base-8M');
    const [empty, unknown] = await e.embed(['', '東京']);
    expect(norm(empty!)).toBe(0);
    expect(norm(unknown!)).toBe(0);
  });

  it('chunks with the model tokenizer within the budget and counts its work', async () => {
    const e = await pool.get('minishlab/potion-base-8M');
    const tok = await loadTokenizer(`${TEST_MODELS_DIR}/minishlab/potion-base-8M`, nodeFileReader);
    const text = Array.from({ length: 120 }, (_, i) => `Sentence ${i} describes protein kinase activity in cells.`).join(' ');
    const chunks = e.chunk(text);
    expect(chunks.length).toBeGreaterThan(1);
    for (const c of chunks) expect(tok.encode(c).length).toBeLessThanOrEqual(256);
    expect(e.chunk('A short node description.')).toEqual(['A short node description.']);
    const before = e.stats!();
    await e.embed(chunks);
    const after = e.stats!();
    expect(after.texts - before.texts).toBe(chunks.length);
    expect(after.tokens - before.tokens).toBeGreaterThan(chunks.length * 100);
  });
});

describe('model files', () => {
  it('detects the static layout from config.json', async () => {
    expect(await detectModelKind(`${TEST_MODELS_DIR}/minishlab/potion-base-8M`, nodeFileReader)).toEqual({ type: 'static' });
    expect((await detectModelKind('test-output/nowhere', nodeFileReader)).type).toBe('missing');
  });

  it('reads F16 tables and aligned F32 tables', () => {
    const f16 = Uint16Array.of(0x3c00, 0xc000, 0x3555, 0x0000); // 1, -2, ~0.333, 0
    const t = readTensor(safetensors({ embeddings: { dtype: 'F16', shape: [2, 2], data: f16 } }), 'embeddings')!;
    expect(Array.from(t.data)).toEqual([1, -2, expect.closeTo(0.333, 3), 0]);
    const f32 = Float32Array.of(1.5, -0.25);
    const bytes = safetensors({ x: { dtype: 'F32', shape: [2], data: f32 } });
    expect(Array.from(readTensor(bytes, 'x')!.data)).toEqual([1.5, -0.25]);
    expect(readTensor(bytes, 'missing')).toBeNull();
  });
});

describe('tokenizer helpers', () => {
  it('takes the per-word path only for whitespace-separable tokenizers', () => {
    expect(isWordSeparable({ normalizer: { type: 'BertNormalizer' }, pre_tokenizer: { type: 'BertPreTokenizer' } })).toBe(true);
    expect(isWordSeparable({ normalizer: null, pre_tokenizer: { type: 'Metaspace' } })).toBe(false);
    expect(isWordSeparable({ normalizer: { type: 'Precompiled' }, pre_tokenizer: { type: 'WhitespaceSplit' } })).toBe(false);
    expect(isWordSeparable({ pre_tokenizer: { type: 'ByteLevel' } })).toBe(false);
  });

  it("truncates by code points and takes model2vec's median token length", () => {
    expect(truncateCodePoints('a🧬b🧬c', 3)).toBe('a🧬b');
    expect(truncateCodePoints('abc', 5)).toBe('abc');
    expect(medianLength(['a', 'bb', 'ccc', '##dd'])).toBe(2);
    expect(medianLength(['a', 'bb', 'ccc'])).toBe(2);
  });
});
