/**
 * The cheap half of noticing a change on Community Edition, which has no change feed: the
 * bookmark a read-only session returns names the database's last committed write, and a
 * transaction that changes nothing leaves it as it was. Asking for it costs one `RETURN 1`.
 */
import neo4j, { type Driver } from 'neo4j-driver';

/** The bookmark of the latest committed write of `database`, as a read-only session reports it. */
export async function graphBookmark(driver: Driver, database: string): Promise<string> {
  const session = driver.session({ database, defaultAccessMode: neo4j.session.READ });
  try {
    await session.run('RETURN 1');
    return session.lastBookmarks().join(',');
  } finally {
    await session.close();
  }
}
