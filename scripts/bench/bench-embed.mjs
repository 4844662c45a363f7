#!/usr/bin/env node
/**
 * Embedding throughput (npm run bench:embed): chunk + embed realistic texts with the in-process
 * static path, and compare the JS gather/mean with the same computation run by ONNX Runtime.
 *
 * The hub is not reachable here, so the models are generated: the test tokenizer's vocabulary
 * padded with pronounceable synthetic words to the real models' row counts (potion-base-8M
 * 29,528 × 256, potion-base-32M 63,091 × 512, float32), so the tables have the real size and
 * memory. Texts are 200-2,000 characters of words drawn Zipf-like from that vocabulary with
 * punctuation. Each model runs in its own child process so peak RSS is its own.
 *
 *   node scripts/bench/bench-embed.mjs [--texts 10000] [--batch 256]
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { buildVocab, safetensors, tokenizerJson, randomTable } from '../gen/gen-test-models.mjs';
import { prng } from '../gen/prng.mjs';
import { staticMeanOnnx } from '../gen/onnx-writer.mjs';

const ROOT = join(fileURLToPath(import.meta.url), '..', '..', '..');
const OUT = join(ROOT, 'test-output', 'bench-embed');
const MODELS = [
  { name: 'minishlab/potion-base-8M', rows: 29_528, dims: 256 },
  { name: 'minishlab/potion-base-32M', rows: 63_091, dims: 512 },
];
const args = Object.fromEntries(
  process.argv
    .slice(2)
    .map((a, i, all) => (a.startsWith('--') ? [a.slice(2), all[i + 1]] : []))
    .filter((x) => x.length),
);
const TEXTS = Number(args.texts ?? 10_000);
const BATCH = Number(args.batch ?? 256);

function syntheticWords(count, seed) {
  const next = prng(seed);
  const on = ['b', 'c', 'd', 'f', 'g', 'k', 'l', 'm', 'n', 'p', 'r', 's', 't', 'v', 'z', 'ch', 'st', 'tr', 'pl'];
  const nu = ['a', 'e', 'i', 'o', 'u', 'ia', 'eo', 'ou'];
  const words = new Set();
  while (words.size < count) {
    let w = '';
    const syl = 2 + Math.floor(next() * 3);
    for (let i = 0; i < syl; i++) w += on[Math.floor(next() * on.length)] + nu[Math.floor(next() * nu.length)];
    words.add(w);
  }
  return [...words];
}

function writeBenchModel({ name, rows, dims }) {
  const dir = join(OUT, 'models', name);
  if (existsSync(join(dir, 'model.safetensors'))) return dir;
  const base = buildVocab();
  const known = new Set(base);
  const vocab = [...base, ...syntheticWords(rows - base.length + 1000, 11).filter((w) => !known.has(w))].slice(0, rows);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'tokenizer.json'), JSON.stringify(tokenizerJson(vocab)));
  writeFileSync(
    join(dir, 'model.safetensors'),
    safetensors({ embeddings: { dtype: 'F32', shape: [rows, dims], data: randomTable(rows, dims, dims) } }),
  );
  writeFileSync(join(dir, 'config.json'), JSON.stringify({ model_type: 'model2vec', hidden_dim: dims, normalize: true }));
  return dir;
}

/** Texts of 200-2,000 characters, words Zipf-distributed over the vocabulary's whole words. */
function makeTexts(vocab, n) {
  const words = vocab.filter((w) => /^[a-z]{2,}$/.test(w));
  const next = prng(99);
  const zipf = () => words[Math.min(words.length - 1, Math.floor(Math.exp(next() * Math.log(words.length))) - 1)];
  const texts = [];
  for (let i = 0; i < n; i++) {
    const len = 200 + Math.floor(next() * 1800);
    let t = '';
    while (t.length < len) {
      let w = zipf();
      if (next() < 0.08) w = w[0].toUpperCase() + w.slice(1);
      t += w + (next() < 0.07 ? '. ' : next() < 0.05 ? ', ' : ' ');
    }
    texts.push(t.trim());
  }
  return texts;
}

async function child(modelName) {
  const spec = MODELS.find((m) => m.name === modelName);
  const bundle = join(OUT, 'embeddings.mjs');
  const lib = await import(bundle);
  const ort = await import('onnxruntime-node');
  const modelsDir = join(OUT, 'models');
  const dir = join(modelsDir, spec.name);
  const rssStart = process.memoryUsage().rss;
  const pool = lib.createEmbedders({ modelsDir, localBaseUrl: 'http://127.0.0.1:1' });
  const t0 = performance.now();
  const emb = await pool.get(spec.name);
  const loadMs = performance.now() - t0;
  const tok = await lib.loadTokenizer(dir, lib.nodeFileReader);
  const texts = makeTexts(tok.tokens, TEXTS);
  const chars = texts.reduce((n, t) => n + t.length, 0);

  // End to end: chunk each text, embed in batches of BATCH chunks (cold word cache first pass).
  const pass = async () => {
    const s0 = emb.stats();
    const start = performance.now();
    let pending = [];
    let chunks = 0;
    for (const t of texts) {
      for (const c of emb.chunk(t)) pending.push(c);
      if (pending.length >= BATCH) {
        chunks += (await emb.embed(pending)).length;
        pending = [];
      }
    }
    if (pending.length) chunks += (await emb.embed(pending)).length;
    const ms = performance.now() - start;
    const s1 = emb.stats();
    return {
      chunks,
      ms,
      tokens: s1.tokens - s0.tokens,
      tokenizeMs: s1.tokenizeMs - s0.tokenizeMs,
      inferenceMs: s1.inferenceMs - s0.inferenceMs,
    };
  };
  const cold = await pass();
  const warm = await pass();

  // JS gather/mean vs ONNX Runtime on identical id lists (inference only).
  const chunkTexts = texts.slice(0, 2000).flatMap((t) => emb.chunk(t));
  const idLists = chunkTexts.map((c) =>
    tok
      .encode(c)
      .filter((id) => id !== tok.unkId)
      .slice(0, 512),
  );
  const rssEmbedding = process.resourceUsage().maxRSS * 1024;
  const before = emb.stats();
  const jsStart = performance.now();
  const jsVecs = [];
  for (let i = 0; i < chunkTexts.length; i += BATCH) jsVecs.push(...(await emb.embed(chunkTexts.slice(i, i + BATCH))));
  const jsTotal = performance.now() - jsStart;
  const jsInference = emb.stats().inferenceMs - before.inferenceMs;
  const { readTensor } = lib;
  const table = readTensor(
    new Uint8Array(await import('node:fs').then((fs) => fs.readFileSync(join(dir, 'model.safetensors')))),
    'embeddings',
  ).data;
  const session = await ort.InferenceSession.create(staticMeanOnnx(table, spec.rows, spec.dims), { graphOptimizationLevel: 'all' });
  let ortRun = 0;
  let ortMarshal = 0;
  let maxDiff = 0;
  for (let i = 0; i < idLists.length; i += BATCH) {
    const m0 = performance.now();
    const batch = idLists.slice(i, i + BATCH);
    const width = Math.max(1, ...batch.map((b) => b.length));
    const ids = new BigInt64Array(batch.length * width);
    const mask = new BigInt64Array(batch.length * width);
    batch.forEach((row, r) => row.forEach((id, j) => ((ids[r * width + j] = BigInt(id)), (mask[r * width + j] = 1n))));
    const feeds = {
      input_ids: new ort.Tensor('int64', ids, [batch.length, width]),
      attention_mask: new ort.Tensor('int64', mask, [batch.length, width]),
    };
    const m1 = performance.now();
    const out = (await session.run(feeds)).embeddings.data;
    const m2 = performance.now();
    ortMarshal += m1 - m0;
    ortRun += m2 - m1;
    batch.forEach((_, r) => {
      const js = jsVecs[i + r];
      for (let k = 0; k < spec.dims; k++) maxDiff = Math.max(maxDiff, Math.abs(js[k] - out[r * spec.dims + k]));
    });
  }
  await session.release();
  const sJs = emb.stats();
  const peakRss = process.resourceUsage().maxRSS * 1024;
  console.log(
    JSON.stringify({
      model: spec.name,
      rows: spec.rows,
      dims: spec.dims,
      texts: TEXTS,
      chars,
      loadMs,
      rssStart,
      peakRss,
      cold,
      warm,
      rssEmbedding,
      compare: {
        chunks: chunkTexts.length,
        jsTotalMs: jsTotal,
        jsInferenceMs: jsInference,
        ortMarshalMs: ortMarshal,
        ortRunMs: ortRun,
        maxDiff,
      },
      statsTotal: sJs,
    }),
  );
  await pool.close();
}

async function parent() {
  mkdirSync(OUT, { recursive: true });
  await build({
    stdin: {
      contents: `export { createEmbedders } from './src/embeddings/embedders.ts';
export { loadTokenizer } from './src/embeddings/tokenizer.ts';
export { nodeFileReader } from './src/embeddings/model-files.ts';
export { readTensor } from './src/embeddings/safetensors.ts';`,
      resolveDir: ROOT,
      loader: 'ts',
    },
    bundle: true,
    format: 'esm',
    platform: 'node',
    packages: 'external',
    outfile: join(OUT, 'embeddings.mjs'),
    logLevel: 'error',
  });
  const mb = (b) => `${(b / 1048576).toFixed(0)} MB`;
  console.log(
    `embedding benchmark: ${TEXTS} texts of 200-2,000 chars, batches of ${BATCH} chunks, default chunking (256 tokens, 32 overlap)\n`,
  );
  for (const spec of MODELS) {
    writeBenchModel(spec);
    const out = execFileSync(
      process.execPath,
      [fileURLToPath(import.meta.url), '--child', spec.name, '--texts', String(TEXTS), '--batch', String(BATCH)],
      { maxBuffer: 1 << 24 },
    );
    const r = JSON.parse(out.toString().trim().split('\n').pop());
    const line = (p) =>
      `${Math.round(p.chunks / (p.ms / 1000))} chunks/s (${p.chunks} chunks, ${(p.tokens / p.chunks).toFixed(0)} tokens/chunk; tokenise ${p.tokenizeMs.toFixed(0)} ms, gather+mean ${p.inferenceMs.toFixed(0)} ms, total ${p.ms.toFixed(0)} ms)`;
    console.log(`${r.model} (${r.rows} × ${r.dims}, load ${r.loadMs.toFixed(0)} ms)`);
    console.log(`  cold word cache: ${line(r.cold)}`);
    console.log(`  warm word cache: ${line(r.warm)}`);
    const c = r.compare;
    console.log(
      `  same ${c.chunks} chunks, ids given: JS gather+mean ${c.jsInferenceMs.toFixed(0)} ms | ONNX Runtime ${(c.ortRunMs + c.ortMarshalMs).toFixed(0)} ms (${c.ortRunMs.toFixed(0)} ms run + ${c.ortMarshalMs.toFixed(0)} ms building int64 tensors); max |diff| ${c.maxDiff.toExponential(1)}`,
    );
    console.log(
      `  peak RSS ${mb(r.rssEmbedding)} chunking + embedding; ${mb(r.peakRss)} after the ONNX comparison (a second table copy + session)\n`,
    );
  }
}

if (process.argv[2] === '--child') await child(process.argv[3]);
else await parent();
