package org.graphchat.changes;

import java.util.List;
import java.util.stream.Stream;
import org.neo4j.graphdb.GraphDatabaseService;
import org.neo4j.procedure.Context;
import org.neo4j.procedure.Description;
import org.neo4j.procedure.Mode;
import org.neo4j.procedure.Name;
import org.neo4j.procedure.Procedure;

/** Read-only procedures over the change log of the database they run in. */
public class ChangeProcedures {
    @Context
    public GraphDatabaseService db;

    public static final class Changes {
        public String epoch;
        public long position;
        public boolean lost;
        public List<String> ids;

        Changes(String epoch, long position, boolean lost, List<String> ids) {
            this.epoch = epoch;
            this.position = position;
            this.lost = lost;
            this.ids = ids;
        }
    }

    public static final class Info {
        public String version;
        public String epoch;
        public long position;
        public long oldest;
        public long capacity;

        Info(String version, String epoch, long position, long oldest, long capacity) {
            this.version = version;
            this.epoch = epoch;
            this.position = position;
            this.oldest = oldest;
            this.capacity = capacity;
        }
    }

    @Procedure(name = "graphchat.changes", mode = Mode.READ)
    @Description("The element ids of the nodes changed by log entries in (after, after + max], distinct, in log order; "
            + "position: the last entry covered; lost: entries after `after` are gone (or `after` is from another epoch).")
    public Stream<Changes> changes(@Name("after") long after, @Name("max") long max) {
        ChangeLog.Slice s = log().read(after, max);
        return Stream.of(new Changes(s.epoch, s.position, s.lost, s.ids));
    }

    @Procedure(name = "graphchat.changesInfo", mode = Mode.READ)
    @Description("The change log's plugin version, epoch, head position, oldest retained position and capacity.")
    public Stream<Info> changesInfo() {
        ChangeLog log = log();
        long head = log.head();
        return Stream.of(new Info(ChangeLog.VERSION, log.epoch(), head, Math.max(1, head - log.capacity() + 1), log.capacity()));
    }

    private ChangeLog log() {
        String name = db.databaseName();
        ChangeLog log = ChangeLog.forDatabase(name);
        if (log == null) {
            throw new IllegalStateException("graph-chat-changes: no change log for database '" + name
                    + "' (is the plugin jar on the server's class path, i.e. in plugins/, and was the server restarted?)");
        }
        return log;
    }
}
