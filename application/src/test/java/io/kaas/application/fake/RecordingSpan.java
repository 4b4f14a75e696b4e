package io.kaas.application.fake;

import io.kaas.application.port.in.TraceSpan;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A sampled span that records what is done with it, for tests of what the use cases trace: its children
 * (each a recording span), attributes, failure, and whether it ended, and in which order spans of one tree
 * ended. Activating it makes it current as the wire's would; there is no tracing library to attach to.
 */
public final class RecordingSpan implements TraceSpan {
    private final String name;
    private final List<RecordingSpan> children = new ArrayList<>();
    private final Map<String, Object> attributes = new LinkedHashMap<>();
    /** Shared by a whole tree: the spans in the order they ended. */
    private final List<RecordingSpan> endOrder;
    private Throwable failure;
    private int ends;

    /** A request's span, the root of a tree. */
    public RecordingSpan(String name) {
        this(name, new ArrayList<>());
    }

    private RecordingSpan(String name, List<RecordingSpan> endOrder) {
        this.name = name;
        this.endOrder = endOrder;
    }

    @Override
    public synchronized TraceSpan child(String childName) {
        RecordingSpan child = new RecordingSpan(childName, endOrder);
        children.add(child);
        return child;
    }

    @Override
    public synchronized TraceSpan attribute(String key, long value) {
        attributes.put(key, value);
        return this;
    }

    @Override
    public synchronized TraceSpan attribute(String key, String value) {
        attributes.put(key, value);
        return this;
    }

    @Override
    public synchronized void fail(Throwable error) {
        failure = error;
    }

    @Override
    public void end() {
        synchronized (endOrder) {
            if (ends++ == 0) {
                endOrder.add(this);
            }
        }
    }

    public String name() {
        return name;
    }

    public synchronized List<RecordingSpan> children() {
        return List.copyOf(children);
    }

    /** The children named {@code childName}. */
    public synchronized List<RecordingSpan> children(String childName) {
        return children.stream().filter(c -> c.name.equals(childName)).toList();
    }

    public synchronized Map<String, Object> attributes() {
        return Map.copyOf(attributes);
    }

    public synchronized Throwable failure() {
        return failure;
    }

    public boolean ended() {
        synchronized (endOrder) {
            return ends > 0;
        }
    }

    /** The spans of this one's tree that have ended, in the order they did. */
    public List<RecordingSpan> endOrder() {
        synchronized (endOrder) {
            return List.copyOf(endOrder);
        }
    }

    @Override
    public String toString() {
        return name;
    }
}
