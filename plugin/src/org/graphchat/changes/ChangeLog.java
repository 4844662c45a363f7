package org.graphchat.changes;

import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One database's bounded log of changed node ids: a ring of longs (8 bytes an entry), the
 * database's element-id prefix kept once. Positions start at 0 (no entries) and grow by one per
 * entry; the entry at position p lives in slot (p - 1) % capacity.
 *
 * <p>Writers (the committing threads) reserve positions with one atomic add, store their ids and
 * publish them in reservation order (a CAS; a writer waits only for an earlier writer that is
 * between its add and its CAS, a few array stores). Readers take no lock: they copy the slots
 * below the published head, then re-read the reservation counter and drop what a writer may
 * have overwritten meanwhile (a seqlock-style validation).
 */
public final class ChangeLog {
    public static final String VERSION = "1";
    public static final String CAPACITY_PROPERTY = "graphchat.changes.capacity";
    public static final int DEFAULT_CAPACITY = 1_000_000;
    /** Read once, when the plugin's classes load. */
    public static final int CAPACITY = capacityFromProperty();

    /** The logs of the running databases, by name; shared by the extension and the procedures. */
    private static final Map<String, ChangeLog> REGISTRY = new ConcurrentHashMap<>();

    private final long[] ring;
    private final int capacity;
    /** Positions handed to writers (may run ahead of published while they store). */
    private final AtomicLong reserved = new AtomicLong();
    /** The head: every entry up to here is stored and readable. */
    private final AtomicLong published = new AtomicLong();
    private volatile String epoch = newEpoch();
    /** Element id of node n = prefix + n's id; learnt from the first node the log sees. */
    private volatile String elementIdPrefix;

    public ChangeLog(int capacity) {
        if (capacity < 1) throw new IllegalArgumentException("capacity must be at least 1");
        this.capacity = capacity;
        this.ring = new long[capacity];
    }

    static ChangeLog forDatabase(String name) {
        return REGISTRY.get(name);
    }

    static void register(String name, ChangeLog log) {
        REGISTRY.put(name, log);
    }

    static void unregister(String name, ChangeLog log) {
        REGISTRY.remove(name, log);
    }

    public int capacity() {
        return capacity;
    }

    public String epoch() {
        return epoch;
    }

    /** A new epoch: readers holding a position must not trust the log to be complete since it. */
    void renewEpoch() {
        epoch = newEpoch();
    }

    public long head() {
        return published.get();
    }

    /** The oldest position still held; head + 1 when the log is empty. */
    public long oldest() {
        return oldestFor(published.get());
    }

    private long oldestFor(long head) {
        return Math.max(1, head - capacity + 1);
    }

    boolean knowsPrefix() {
        return elementIdPrefix != null;
    }

    void setElementIdPrefix(String prefix) {
        elementIdPrefix = prefix;
    }

    /** Appends ids[0..n) (distinct already). No allocation, no I/O, no lock. */
    public void append(long[] ids, int n) {
        if (n <= 0) return;
        long start = reserved.getAndAdd(n); // entries get positions start+1 .. start+n
        // Only the last `capacity` of a huge batch can be held.
        int from = Math.max(0, n - capacity);
        for (int i = from; i < n; i++) {
            ring[(int) ((start + i) % capacity)] = ids[i];
        }
        long end = start + n;
        // Publish in order: wait for writers that reserved before us (they are storing ids).
        int spins = 0;
        while (!published.compareAndSet(start, end)) {
            if (++spins < 100) Thread.onSpinWait();
            else Thread.yield();
        }
    }

    /** The result of a read: positions (after, position] covered, or lost. */
    public static final class Slice {
        public final String epoch;
        public final long position;
        public final boolean lost;
        public final List<String> ids;

        Slice(String epoch, long position, boolean lost, List<String> ids) {
            this.epoch = epoch;
            this.position = position;
            this.lost = lost;
            this.ids = ids;
        }
    }

    /** The distinct element ids of entries in (after, after + max], in log order. */
    public Slice read(long after, long max) {
        if (max < 1) throw new IllegalArgumentException("max must be at least 1, was " + max);
        String ep = epoch;
        long head = published.get();
        if (after > head || after < oldestFor(head) - 1) return new Slice(ep, head, true, List.of());
        long end = after + Math.min(max, head - after);
        int n = (int) (end - after);
        if (n == 0) return new Slice(ep, after, false, List.of());
        long[] copy = new long[n];
        for (int i = 0; i < n; i++) copy[i] = ring[(int) ((after + i) % capacity)];
        // Validate: a writer that reserved beyond head may have overwritten the oldest slots.
        VarHandle.acquireFence();
        long res = reserved.get();
        if (after + 1 < res - capacity + 1) {
            long h = published.get();
            return new Slice(ep, h, true, List.of());
        }
        String prefix = elementIdPrefix;
        Set<Long> seen = new HashSet<>(Math.min(n, 1 << 16) * 2);
        List<String> out = new ArrayList<>();
        for (long id : copy) {
            if (seen.add(id)) out.add(prefix + id);
        }
        return new Slice(ep, end, false, out);
    }

    /** Sorts ids[0..n) and drops repeats; returns the new length. */
    static int distinct(long[] ids, int n) {
        if (n < 2) return n;
        Arrays.sort(ids, 0, n);
        int w = 1;
        for (int i = 1; i < n; i++) {
            if (ids[i] != ids[w - 1]) ids[w++] = ids[i];
        }
        return w;
    }

    private static String newEpoch() {
        return UUID.randomUUID().toString();
    }

    private static int capacityFromProperty() {
        String v = System.getProperty(CAPACITY_PROPERTY);
        if (v == null || v.isBlank()) return DEFAULT_CAPACITY;
        try {
            int c = Integer.parseInt(v.trim().replace("_", ""));
            if (c >= 1) return c;
        } catch (NumberFormatException ignored) {
            // fall through
        }
        System.err.println("graph-chat-changes: ignoring " + CAPACITY_PROPERTY + "=" + v
                + " (not a whole number of at least 1); using " + DEFAULT_CAPACITY);
        return DEFAULT_CAPACITY;
    }
}
