/**
 * `load-sample [--if-empty]`: loads the bundled sample graph into `GRAPHDB_GRAPH`. With
 * `--if-empty` (what `npm start` uses) a database that already has nodes is left alone.
 */
import { loadConfig } from '../config.js';
import { createGraphStore } from '../graph/access/driver.js';
import { loadSampleGraph, type SampleGraph } from '../graph/access/sample.js';
import data from '../graph/access/sample-data.json' with { type: 'json' };
import type { Command } from './command.js';

/** Runs the loader and prints one line saying what happened. */
export const loadSampleCommand: Command = async (args, env) => {
  const config = loadConfig(env);
  const graph = createGraphStore(config);
  try {
    const result = await loadSampleGraph(graph.driver, data as SampleGraph, {
      database: config.GRAPHDB_GRAPH,
      ifEmpty: args.includes('--if-empty'),
    });
    console.log(
      result.loaded
        ? `sample graph loaded into "${config.GRAPHDB_GRAPH}": ${result.nodes} nodes, ${result.relationships} relationships`
        : `database "${config.GRAPHDB_GRAPH}" already has data; sample graph not loaded`,
    );
    return 0;
  } finally {
    await graph.close();
  }
};
