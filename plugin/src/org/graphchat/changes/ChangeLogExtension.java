package org.graphchat.changes;

import org.neo4j.dbms.api.DatabaseManagementService;
import org.neo4j.graphdb.GraphDatabaseService;
import org.neo4j.kernel.extension.ExtensionFactory;
import org.neo4j.kernel.extension.ExtensionType;
import org.neo4j.kernel.extension.context.ExtensionContext;
import org.neo4j.kernel.lifecycle.Lifecycle;
import org.neo4j.kernel.lifecycle.LifecycleAdapter;

/**
 * Per database (not `system`): a change log and the afterCommit listener that fills it, for the
 * database's lifetime. Found through META-INF/services on the server's class path (a jar in
 * plugins/ is on it).
 */
public final class ChangeLogExtension extends ExtensionFactory<ChangeLogExtension.Dependencies> {
    public interface Dependencies {
        GraphDatabaseService graphDatabaseService();

        DatabaseManagementService databaseManagementService();
    }

    public ChangeLogExtension() {
        super(ExtensionType.DATABASE, "graphChatChanges");
    }

    @Override
    public Lifecycle newInstance(ExtensionContext context, Dependencies dependencies) {
        String name = dependencies.graphDatabaseService().databaseName();
        if ("system".equals(name)) return new LifecycleAdapter();
        DatabaseManagementService dbms = dependencies.databaseManagementService();
        return new LifecycleAdapter() {
            private ChangeLog log;
            private ChangeListener listener;

            @Override
            public void start() {
                log = new ChangeLog(ChangeLog.CAPACITY); // a new epoch at every start
                listener = new ChangeListener(log);
                ChangeLog.register(name, log);
                dbms.registerTransactionEventListener(name, listener);
            }

            @Override
            public void stop() {
                if (listener != null) {
                    try {
                        dbms.unregisterTransactionEventListener(name, listener);
                    } catch (RuntimeException ignored) {
                        // already gone with the database
                    }
                    ChangeLog.unregister(name, log);
                    listener = null;
                    log = null;
                }
            }
        };
    }
}
