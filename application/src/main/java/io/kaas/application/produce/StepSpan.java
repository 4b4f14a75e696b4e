package io.kaas.application.produce;

import io.kaas.application.port.in.TraceSpan;

/**
 * One span for a step every partition of a sampled produce takes (their appends, their waits for the
 * fsync): open from the first partition starting the step until the last one in it leaves, with the number
 * of partitions it covered. A 6-partition produce thus traces 3 spans, not 13: each span costs its request
 * about a microsecond to build and its exporter as much to send, which per partition would not fit the
 * tracing budget. Unsampled requests share {@link #NONE}, which allocates and locks nothing.
 *
 * <p>A partition {@link #expect() is expected} when its step is queued, so that partitions taking the step one
 * after the other on one thread (a request's appends, in one turn) share a span; a partition whose step ends
 * before the next one was even queued (a turn already running elsewhere took it) opens a second span.
 */
final class StepSpan {
    static final StepSpan NONE = new StepSpan(TraceSpan.NONE, "none");

    private final TraceSpan request;
    private final String name;
    /** Guarded by this: partitions expected and not yet done, the open span, the partitions it covered. */
    private int pending;
    private TraceSpan open = TraceSpan.NONE;
    private int covered;

    private StepSpan(TraceSpan request, String name) {
        this.request = request;
        this.name = name;
    }

    /** The step {@code name} of {@code request}'s partitions; {@link #NONE} for an unsampled request. */
    static StepSpan of(TraceSpan request, String name) {
        return request == TraceSpan.NONE ? NONE : new StepSpan(request, name);
    }

    /** A partition will take the step. */
    void expect() {
        if (this != NONE) {
            synchronized (this) {
                pending++;
            }
        }
    }

    /** An expected partition starts the step: answers the step's span, opened now unless it is open. */
    TraceSpan start() {
        if (this == NONE) {
            return TraceSpan.NONE;
        }
        synchronized (this) {
            if (open == TraceSpan.NONE) {
                open = request.child(name);
                covered = 0;
            }
            covered++;
            return open;
        }
    }

    /** A partition is done with the step ({@code failure} null if it went well); the last one ends the span. */
    void done(Throwable failure) {
        if (this == NONE) {
            return;
        }
        synchronized (this) {
            if (failure != null) {
                open.fail(failure);
            }
            if (--pending == 0 && open != TraceSpan.NONE) {
                open.attribute("kaas.partitions", covered).end();
                open = TraceSpan.NONE;
            }
        }
    }
}
