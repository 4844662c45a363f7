/**
 * The change log of this repo's server plugin (plugin/: `graphchat.changesInfo`,
 * `graphchat.changes`): which nodes committed transactions touched, by position, in memory on
 * the server. The index sync follows it instead of comparing every indexed node
 * (src/vector-index/sync/source.ts).
 */
import neo4j, { type Driver, Neo4jError } from 'neo4j-driver';

/** The log version this service reads; a plugin of another answers with its own. */
export const CHANGE_LOG_VERSION = '1';

/** Where the log stands. */
export interface ChangeLogInfo {
  version: string;
  /** Chosen when the server started the database: another epoch means entries may have been missed. */
  epoch: string;
  /** The newest entry's position (0: none yet). */
  position: number;
  /** The oldest entry still held. */
  oldest: number;
  capacity: number;
}

/** Entries after a position. */
export interface ChangePage {
  epoch: string;
  /** The position of the last entry covered: ask from here next. */
  position: number;
  /** Entries after the asked position are gone (overwritten, or the position is another epoch's): only a full check is safe. */
  lost: boolean;
  /** Element ids of the nodes the entries name, each once. */
  ids: string[];
}

const PROCEDURE_MISSING = 'Neo.ClientError.Procedure.ProcedureNotFound';

/** The log's state, or why there is none: the plugin is not installed, or it failed. */
export async function readChangeLogInfo(driver: Driver, database: string): Promise<ChangeLogInfo | { missing: string }> {
  try {
    // Written where transactions commit (a cluster's leader): asked there, not of a follower.
    const { records } = await driver.executeQuery('CALL graphchat.changesInfo()', {}, { database });
    const r = records[0];
    if (!r) return { missing: 'the change-log plugin answered nothing' };
    return {
      version: String(r.get('version')),
      epoch: String(r.get('epoch')),
      position: Number(r.get('position')),
      oldest: Number(r.get('oldest')),
      capacity: Number(r.get('capacity')),
    };
  } catch (err) {
    if (err instanceof Neo4jError && err.code === PROCEDURE_MISSING) return { missing: 'plugin not installed' };
    // Only the database being down is the caller's to handle; anything else is the plugin's failure.
    if (err instanceof Neo4jError && (err.code.startsWith('Neo.ClientError.Procedure') || err.code.startsWith('Neo.DatabaseError'))) {
      return { missing: `the change-log plugin failed: ${err.message.slice(0, 200)}` };
    }
    throw err;
  }
}

/** Up to `max` entries after `after`. */
export async function readChanges(driver: Driver, database: string, after: number, max: number): Promise<ChangePage> {
  const { records } = await driver.executeQuery(
    'CALL graphchat.changes($after, $max)',
    { after: neo4j.int(after), max: neo4j.int(max) },
    { database },
  );
  const r = records[0];
  if (!r) throw new Error('graphchat.changes returned no row');
  return {
    epoch: String(r.get('epoch')),
    position: Number(r.get('position')),
    lost: r.get('lost') === true,
    ids: (r.get('ids') as string[]) ?? [],
  };
}
