/**
 * Shared pieces of the index and search benchmarks: which model files to use, the machine
 * description printed with every figure, and a bench config.
 */
import { existsSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import type { Driver } from 'neo4j-driver';
import { loadConfig, type Config } from '../../src/config.js';
import { generateTestModels } from '../gen/gen-test-models.mjs';

/** Model used by the benches. */
export const BENCH_MODEL = 'minishlab/potion-base-32M';
/** Text property of the bench graphs: no other build (default `text`) ever sees them. */
export const SYNTHETIC_PROP = 'bench_text';
export const WIKIPATHWAYS_PROP = 'wp_bench_text';
export const SYNTHETIC_INDEX = 'bench_synthetic_potion_base_32M';
export const WIKIPATHWAYS_INDEX = 'bench_wikipathways_potion_base_32M';

/**
 * MODELS_DIR for the benches: `./models` when it holds the real potion model (scripts/fetch-models),
 * else the generated tiny model with the same dimensions (test-output/models).
 */
export function benchModels(): { dir: string; description: string } {
  const real = process.env.MODELS_DIR ?? './models';
  if (existsSync(`${real}/${BENCH_MODEL}/model.safetensors`)) {
    return { dir: real, description: `${BENCH_MODEL} (real model files from ${real})` };
  }
  generateTestModels('test-output/models');
  return {
    dir: 'test-output/models',
    description:
      `generated tiny model with the dimensions of ${BENCH_MODEL} (512; ~2,400-token vocabulary, ` +
      `the real files are not in ./models — run scripts/fetch-models for them)`,
  };
}

/** Config of a bench run (the environment, the bench's model dir and data dir, quiet logs). */
export function benchConfig(modelsDir: string, extra: Record<string, string> = {}): Config {
  return loadConfig({
    GRAPHDB_URL: '127.0.0.1',
    // Benches index their own text property in a shared database: measuring the same index as
    // before discovery existed (bench:discovery and bench:index pass their own choice).
    INDEX_DISCOVER: 'false',
    ...process.env,
    MODELS_DIR: modelsDir,
    DATA_DIR: process.env.BENCH_DATA_DIR ?? 'test-output/bench-data',
    LOG_LEVEL: 'warn',
    ...extra,
  });
}

/** One line describing the machine and the database, printed before the figures. */
export async function describeMachine(driver: Driver, database: string): Promise<string> {
  const { records } = await driver.executeQuery(
    'CALL dbms.components() YIELD versions, edition RETURN versions[0] AS v, edition',
    {},
    { database },
  );
  const neo = records[0] ? `Neo4j ${records[0].get('v')} ${records[0].get('edition')}` : 'Neo4j';
  const cpu = cpus();
  return `${cpu.length} × ${cpu[0]?.model.trim() ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(0)} GB RAM, Node ${process.version}, ${neo} (same machine)`;
}

/** Formats a number with thousands separators. */
export const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
