// Embedded Neo4j Community with a Bolt listener, for local dev/tests without Docker: one source
// for 5.26 LTS (Java 17/21) and the calendar releases (2025.x, 2026.x; Java 21+).
// Run by scripts/services/neo4j.sh as:  java -cp '.local/neo4j/lib/*' scripts/services/neo4j/Launcher.java
// (single-file source launch: compiled in memory, no build step.)
//
// Env:
//   NEO4J_HOME_DIR   home dir (required); data -> $NEO4J_HOME_DIR/data, debug.log -> $NEO4J_HOME_DIR/logs
//   NEO4J_BOLT_PORT  bolt port on 127.0.0.1 (default 1234)
//   NEO4J_PAGECACHE  page cache size, e.g. 512m / 1g (default 512m)
//   NEO4J_TX_LOG_RETENTION  transaction logs kept (default "256M size"; Neo4j's own default is "2 days")
//   NEO4J_TX_LOG_ROTATION   size at which a transaction log file rotates (default 64m)
// Procedures load from $NEO4J_HOME_DIR/plugins (the server's plugin directory; neo4j.sh puts the
// change-log plugin there and on the class path, as a server install does).
// The user log (startup, warnings) goes to stdout, which neo4j.sh redirects to .local/neo4j/neo4j.log.

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;

import org.neo4j.configuration.GraphDatabaseInternalSettings;
import org.neo4j.configuration.GraphDatabaseSettings;
import org.neo4j.configuration.connectors.BoltConnector;
import org.neo4j.configuration.helpers.SocketAddress;
import org.neo4j.dbms.api.DatabaseManagementService;
import org.neo4j.dbms.api.DatabaseManagementServiceBuilder;
import org.neo4j.graphdb.config.Setting;
import org.neo4j.io.ByteUnit;
import org.neo4j.logging.Level;
import org.neo4j.logging.log4j.Log4jLogProvider;

public class Launcher {
    public static void main(String[] args) throws Exception {
        String homeDir = System.getenv("NEO4J_HOME_DIR");
        if (homeDir == null || homeDir.isBlank()) {
            System.err.println("NEO4J_HOME_DIR is not set");
            System.exit(2);
        }
        Path home = Path.of(homeDir).toAbsolutePath();
        int port = Integer.parseInt(env("NEO4J_BOLT_PORT", "1234"));
        long pageCache = ByteUnit.parse(env("NEO4J_PAGECACHE", "512m"));

        DatabaseManagementServiceBuilder builder = new DatabaseManagementServiceBuilder(home)
                // Bolt is off by default in embedded mode; bind to loopback only.
                .setConfig(BoltConnector.enabled, true)
                .setConfig(BoltConnector.listen_address, new SocketAddress("127.0.0.1", port))
                // Dev-only: no auth, so drivers connect without credentials.
                .setConfig(GraphDatabaseSettings.auth_enabled, false)
                // Default would be ~50% of free RAM minus heap; keep it predictable.
                .setConfig(GraphDatabaseSettings.pagecache_memory, pageCache)
                // Bound what one query may allocate (tracked: collect, sort, aggregation, tx state),
                // so a heavy query fails with MemoryPoolOutOfMemoryError instead of exhausting the heap.
                .setConfig(GraphDatabaseSettings.memory_transaction_max_size, ByteUnit.parse(env("NEO4J_TX_MEMORY", "256m")))
                .setConfig(GraphDatabaseSettings.memory_transaction_global_max_size, ByteUnit.parse(env("NEO4J_TX_MEMORY_TOTAL", "1g")))
                // Transaction logs: the server default keeps 2 days of them, which a 10^6-node bench
                // run grew by 13 GB on a dev box. Keep the newest 256 MB only (rotating at 64 MB):
                // enough for crash recovery, which needs only the logs since the last checkpoint.
                // A production server that takes incremental backups keeps them longer (docs/deployment.md).
                .setConfig(GraphDatabaseSettings.keep_logical_logs, env("NEO4J_TX_LOG_RETENTION", "256M size"))
                .setConfig(GraphDatabaseSettings.logical_log_rotation_threshold, ByteUnit.parse(env("NEO4J_TX_LOG_ROTATION", "64m")))
                // Logs are pruned only at a checkpoint, and the default policy checkpoints every 15
                // minutes: bulk writes in between (a 3 x 10^6-node bench) left 19 GB of logs. The VOLUME
                // policy (Community has it) checkpoints whenever this much log has been written.
                .setConfig(GraphDatabaseSettings.check_point_policy, GraphDatabaseSettings.CheckpointPolicy.VOLUME)
                .setConfig(GraphDatabaseSettings.check_point_interval_volume, ByteUnit.parse(env("NEO4J_CHECKPOINT_VOLUME", "256m")))
                // Procedure jars (the change-log plugin, plugin/) load from here, as on a server.
                .setConfig(GraphDatabaseSettings.plugin_dir, home.resolve("plugins"))
                // No usage-data phone-home (machines here are often offline anyway).
                .setConfig(GraphDatabaseSettings.udc_enabled, false)
                // Route the user log (what neo4j.log would contain in a server install) to stdout.
                .setUserLogProvider(new Log4jLogProvider(System.out, Level.INFO));
        // Internal setting (default 5 s, applied twice): Netty's quiet period made every
        // shutdown take ~10 s after the databases were already closed.
        setZero(builder, GraphDatabaseInternalSettings.netty_server_shutdown_quiet_period);
        DatabaseManagementService dbms = builder.build();

        // SIGTERM/SIGINT -> clean shutdown (flush + checkpoint), then let main exit.
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            System.out.println("neo4j shutting down");
            dbms.shutdown();
            System.out.println("neo4j stopped");
            System.out.flush();
            stopped.countDown();
        }, "neo4j-shutdown"));

        // build() returns once the default database is started, but wait explicitly to be safe.
        if (!dbms.database(GraphDatabaseSettings.DEFAULT_DATABASE_NAME).isAvailable(60_000)) {
            System.err.println("neo4j: default database did not become available within 60s");
            System.exit(1); // runs the shutdown hook
        }
        System.out.println("neo4j ready on bolt://127.0.0.1:" + port);
        System.out.flush();
        stopped.await();
    }

    /**
     * Sets a setting to zero in its own type: the same setting is an int (seconds) in 5.26 and a
     * java.time.Duration in the calendar releases, so one source compiles against both.
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private static void setZero(DatabaseManagementServiceBuilder builder, Setting setting) {
        Object zero = setting.defaultValue() instanceof Duration ? Duration.ZERO : (Object) 0;
        builder.setConfig(setting, zero);
    }

    private static String env(String name, String def) {
        String v = System.getenv(name);
        return v == null || v.isBlank() ? def : v;
    }
}
