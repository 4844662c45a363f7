#!/usr/bin/env node
/**
 * Downloads the registry's in-process models from the Hugging Face hub into
 * `<models dir>/<registry name>/`, the layout the service loads.
 *
 *   scripts/fetch-models [--dir <path>] [name ...]     (default: every in-process model)
 *
 * Environment: HF_ENDPOINT (default https://huggingface.co), HF_TOKEN (optional, for gated
 * repos), MODELS_DIR (default ./models; --dir wins).
 *
 * Each file is downloaded to `<file>.part` and renamed when complete; an interrupted run resumes
 * with a Range request. Sizes (and the LFS sha256, when the hub's API lists it) are checked
 * before a file is accepted; files already present and matching are skipped. Exit codes: 0 done,
 * 1 a download or check failed, 2 the hub cannot be reached (offline), 64 bad arguments.
 */
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Files a model2vec folder needs; `optional` ones are fetched when the repo has them. */
const STATIC_FILES = { required: ['config.json', 'tokenizer.json', 'model.safetensors'], optional: ['tokenizer_config.json'] };

/** Thrown when the hub cannot be reached at all. */
class OfflineError extends Error {}

/**
 * In-process names from src/contract/models.ts, the one source of truth (this script runs
 * without a build, so it reads the table rather than importing TypeScript).
 */
export function inProcessModels(source = readFileSync(join(ROOT, 'src/contract/models.ts'), 'utf8')) {
  const names = [...source.matchAll(/\{\s*name:\s*'([^']+)',\s*dimensions:\s*\d+,\s*provider:\s*'in-process'\s*\}/g)].map((m) => m[1]);
  if (!names.length) throw new Error('could not read the in-process models from src/contract/models.ts');
  return names;
}

function parseArgs(argv, env) {
  const out = { dir: env.MODELS_DIR || join(ROOT, 'models'), names: [] };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--dir') out.dir = argv[++i];
    else if (argv[i] === '--help' || argv[i] === '-h') out.help = true;
    else out.names.push(argv[i]);
  }
  return out;
}

async function get(url, init, token) {
  const headers = { ...init?.headers, ...(token ? { authorization: `Bearer ${token}` } : {}) };
  try {
    return await fetch(url, { ...init, headers, signal: AbortSignal.timeout(init?.timeoutMs ?? 30_000) });
  } catch (err) {
    const cause = err?.cause?.code || err?.cause?.message || err?.name || String(err);
    throw new OfflineError(`cannot reach ${new URL(url).origin} (${cause})`);
  }
}

/** The repo's files with sizes and LFS hashes from `api/models/<repo>?blobs=true`, or null if the endpoint has no API. */
async function listFiles(endpoint, repo, token) {
  const res = await get(`${endpoint}/api/models/${repo}?blobs=true`, {}, token);
  if (res.status === 404) throw new Error(`${repo}: the hub has no such repository (404)`);
  if (res.status === 401 || res.status === 403)
    throw new Error(`${repo}: access denied (${res.status}); set HF_TOKEN if the repo is gated`);
  if (!res.ok) return null;
  const json = await res.json();
  return new Map((json.siblings ?? []).map((s) => [s.rfilename, { size: s.lfs?.size ?? s.size, sha256: s.lfs?.sha256 }]));
}

/** Size from a HEAD request (`x-linked-size` for LFS files, else content-length), for endpoints without the API. */
async function headSize(url, token) {
  const res = await get(url, { method: 'HEAD' }, token);
  if (!res.ok) return undefined;
  const size = Number(res.headers.get('x-linked-size') ?? res.headers.get('content-length') ?? '');
  return Number.isFinite(size) && size > 0 ? { size } : undefined;
}

async function sha256(path) {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk);
  return hash.digest('hex');
}

const fmt = (n) => (n >= 1 << 20 ? `${(n / (1 << 20)).toFixed(1)} MB` : `${(n / 1024).toFixed(1)} kB`);

/** Downloads one file with resume; returns 'skipped' or 'downloaded'. */
async function fetchFile({ endpoint, repo, file, dest, expect, token, log }) {
  if (existsSync(dest) && expect?.size !== undefined && statSync(dest).size === expect.size) {
    if (!expect.sha256 || (await sha256(dest)) === expect.sha256) return 'skipped';
  }
  mkdirSync(dirname(dest), { recursive: true });
  const part = `${dest}.part`;
  let have = existsSync(part) ? statSync(part).size : 0;
  if (expect?.size !== undefined && have > expect.size) {
    rmSync(part);
    have = 0;
  }
  const url = `${endpoint}/${repo}/resolve/main/${file}`;
  let res = await get(url, { headers: have ? { range: `bytes=${have}-` } : {}, timeoutMs: 600_000 }, token);
  if (res.status === 416 && have && have === expect?.size)
    res = null; // .part is already complete
  else if (!res.ok) throw new Error(`${repo}/${file}: ${url} answered ${res.status}`);
  if (res) {
    const resumed = res.status === 206;
    const range = /\/(\d+)$/.exec(res.headers.get('content-range') ?? '');
    const total = expect?.size ?? (resumed ? Number(range?.[1]) : Number(res.headers.get('content-length'))) ?? undefined;
    if (!expect && total) expect = { size: total };
    if (have && !resumed) have = 0; // the server ignored the Range: start over
    log(`${repo}/${file}: ${resumed ? `resuming at ${fmt(have)}` : 'downloading'}${total ? ` (${fmt(total)})` : ''}`);
    const out = createWriteStream(part, { flags: resumed ? 'a' : 'w' });
    let done = have;
    let lastShown = Date.now();
    try {
      for await (const chunk of res.body) {
        if (!out.write(chunk)) await new Promise((r) => out.once('drain', r));
        done += chunk.length;
        if (total && Date.now() - lastShown > 2000) {
          log(`${repo}/${file}: ${fmt(done)} / ${fmt(total)} (${Math.floor((100 * done) / total)}%)`);
          lastShown = Date.now();
        }
      }
    } catch (err) {
      throw new Error(`${repo}/${file}: download interrupted at ${fmt(done)} (${err?.cause?.code ?? err.message}); run again to resume`);
    } finally {
      await new Promise((resolve, reject) => out.end((err) => (err ? reject(err) : resolve())));
    }
  }
  const size = statSync(part).size;
  if (expect?.size !== undefined && size !== expect.size) {
    throw new Error(`${repo}/${file}: got ${size} bytes, the hub lists ${expect.size}; run again to resume`);
  }
  if (expect?.sha256) {
    const got = await sha256(part);
    if (got !== expect.sha256) {
      rmSync(part);
      throw new Error(`${repo}/${file}: sha256 ${got} does not match the hub's ${expect.sha256}; the partial file was removed, run again`);
    }
  }
  renameSync(part, dest);
  return 'downloaded';
}

/** Fetches one model folder. */
async function fetchModel({ endpoint, name, dir, token, log }) {
  const listing = await listFiles(endpoint, name, token);
  const files = [...STATIC_FILES.required, ...STATIC_FILES.optional.filter((f) => !listing || listing.has(f))];
  for (const file of files) {
    const required = STATIC_FILES.required.includes(file);
    if (listing && !listing.has(file)) {
      if (required) throw new Error(`${name}: the repository has no ${file}`);
      continue;
    }
    const expect = listing ? listing.get(file) : await headSize(`${endpoint}/${name}/resolve/main/${file}`, token);
    const result = await fetchFile({ endpoint, repo: name, file, dest: join(dir, name, file), expect, token, log });
    log(`${name}/${file}: ${result === 'skipped' ? 'already present and verified' : 'ok'}`);
  }
}

/** Runs the CLI; returns the exit code. */
export async function main(argv = process.argv.slice(2), env = process.env, log = (m) => console.log(m)) {
  const args = parseArgs(argv, env);
  const known = inProcessModels();
  if (args.help) {
    log(`usage: scripts/fetch-models [--dir <models dir>] [name ...]\nin-process models: ${known.join(', ')}`);
    return 0;
  }
  const unknown = args.names.filter((n) => !known.includes(n));
  if (unknown.length) {
    console.error(`not an in-process registry model: ${unknown.join(', ')}\nin-process models: ${known.join(', ')}`);
    return 64;
  }
  const endpoint = (env.HF_ENDPOINT || 'https://huggingface.co').replace(/\/+$/, '');
  const names = args.names.length ? args.names : known;
  let failed = 0;
  for (const name of names) {
    try {
      await fetchModel({ endpoint, name, dir: args.dir, token: env.HF_TOKEN, log });
      log(`${name}: ready in ${join(args.dir, name)}`);
    } catch (err) {
      if (err instanceof OfflineError) {
        console.error(
          `fetch-models: ${err.message}.\n` +
            `The Hugging Face hub (HF_ENDPOINT=${endpoint}) is not reachable from this machine, so no model was downloaded.\n` +
            `Either set HF_ENDPOINT to a reachable mirror, or copy the model folders from a machine with access into\n` +
            `${args.dir}/<name>/ (files: ${STATIC_FILES.required.join(', ')}). Partial downloads are kept and resume next time.`,
        );
        return 2;
      }
      console.error(`fetch-models: ${err.message}`);
      failed++;
    }
  }
  return failed ? 1 : 0;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  process.exitCode = await main();
}
