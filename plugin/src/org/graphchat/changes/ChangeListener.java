package org.graphchat.changes;

import java.util.Collections;
import java.util.Set;
import org.neo4j.graphdb.GraphDatabaseService;
import org.neo4j.graphdb.Node;
import org.neo4j.graphdb.Transaction;
import org.neo4j.graphdb.event.LabelEntry;
import org.neo4j.graphdb.event.PropertyEntry;
import org.neo4j.graphdb.event.TransactionData;
import org.neo4j.graphdb.event.TransactionEventListener;

/**
 * After each commit: the ids of the nodes the transaction created, deleted, labelled, unlabelled
 * or whose properties it set or removed, distinct, appended to the log. The service's own index
 * writes are left out: transactions whose metadata has graphChatIndex: true, and nodes given or
 * stripped of (or deleted with) a label starting with "__", the prefix of the index's chunk and
 * meta labels (the inner transactions of CALL { } IN TRANSACTIONS carry no metadata).
 */
@SuppressWarnings("unchecked") // transactionDataSelection's raw Set, below
final class ChangeListener implements TransactionEventListener<Object> {
    static final String SKIP_KEY = "graphChatIndex";
    /** Labels of the service's index nodes (src/graph/dialect/names.ts INDEX_LABEL_PREFIX). */
    static final String INDEX_LABEL_PREFIX = "__";
    /** What 2025.x and later load for the listener: the labels of deleted nodes (to know index nodes), no values. */
    private static final Set<?> SELECTION = deletedNodeLabels();

    private final ChangeLog log;

    ChangeListener(ChangeLog log) {
        this.log = log;
    }

    @Override
    public Object beforeCommit(TransactionData data, Transaction transaction, GraphDatabaseService db) {
        return null;
    }

    @Override
    public void afterCommit(TransactionData data, Object state, GraphDatabaseService db) {
        try {
            if (Boolean.TRUE.equals(data.metaData().get(SKIP_KEY))) return;
            Set<Long> index = indexNodes(data);
            Ids ids = new Ids(index);
            for (Node n : data.createdNodes()) ids.add(n);
            for (Node n : data.deletedNodes()) ids.add(n);
            for (LabelEntry e : data.assignedLabels()) ids.add(e.node());
            for (LabelEntry e : data.removedLabels()) ids.add(e.node());
            for (PropertyEntry<Node> e : data.assignedNodeProperties()) ids.add(e.entity());
            for (PropertyEntry<Node> e : data.removedNodeProperties()) ids.add(e.entity());
            if (ids.n == 0) return;
            if (!log.knowsPrefix()) log.setElementIdPrefix(prefixOf(ids.first));
            log.append(ids.a, ChangeLog.distinct(ids.a, ids.n));
        } catch (RuntimeException | Error e) {
            // A change may have gone unrecorded: a new epoch tells every reader to check fully.
            log.renewEpoch();
        }
    }

    @Override
    public void afterRollback(TransactionData data, Object state, GraphDatabaseService db) {}

    /**
     * Neo4j 2025.x and later ask which optional data to load for the listener: the labels of
     * deleted nodes only (no old values, no keys of deleted nodes). On 5.26 this is an unused
     * method (the interface has no such method; the raw type and the lookup by name keep the
     * source free of the newer enum), and deleted nodes' labels are always given.
     */
    @SuppressWarnings("rawtypes")
    public Set transactionDataSelection() {
        return SELECTION;
    }

    @SuppressWarnings({"rawtypes", "unchecked"})
    private static Set<?> deletedNodeLabels() {
        try {
            Class c = Class.forName("org.neo4j.graphdb.event.TransactionData$DataSelection");
            return Collections.singleton(Enum.valueOf(c, "deletedNodeLabels"));
        } catch (ClassNotFoundException | IllegalArgumentException e) {
            return Collections.emptySet();
        }
    }

    /** Nodes given, stripped of, or deleted with an index label: the service's own nodes. */
    private static Set<Long> indexNodes(TransactionData data) {
        Set<Long> out = null;
        for (Iterable<LabelEntry> entries : java.util.List.of(data.assignedLabels(), data.removedLabels())) {
            for (LabelEntry e : entries) {
                if (!e.label().name().startsWith(INDEX_LABEL_PREFIX)) continue;
                if (out == null) out = new java.util.HashSet<>();
                out.add(idOf(e.node()));
            }
        }
        return out == null ? Collections.emptySet() : out;
    }

    @SuppressWarnings({"deprecation", "removal"})
    private static long idOf(Node n) {
        return n.getId();
    }

    /** The element-id prefix: "4:<database uuid>:" for "4:<database uuid>:<id>". */
    private static String prefixOf(Node n) {
        String eid = n.getElementId();
        String id = Long.toString(idOf(n));
        if (!eid.endsWith(":" + id)) throw new IllegalStateException("unexpected element id " + eid);
        return eid.substring(0, eid.length() - id.length());
    }

    /** A growable long array of node ids, with the first node kept for the prefix. */
    private static final class Ids {
        final Set<Long> skip;
        long[] a = new long[16];
        int n;
        Node first;

        Ids(Set<Long> skip) {
            this.skip = skip;
        }

        void add(Node node) {
            if (!skip.isEmpty() && skip.contains(idOf(node))) return;
            if (first == null) first = node;
            if (n == a.length) a = java.util.Arrays.copyOf(a, n * 2);
            a[n++] = idOf(node);
        }
    }
}
