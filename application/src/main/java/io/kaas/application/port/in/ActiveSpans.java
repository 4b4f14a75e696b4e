package io.kaas.application.port.in;

/**
 * Which {@link TraceSpan} each thread has activated. Only sampled spans are ever stored: an unsampled
 * request's {@link TraceSpan#NONE} activates nothing, so untraced requests never touch the thread-local
 * beyond {@link #current()}'s read.
 */
final class ActiveSpans {
    private static final ThreadLocal<TraceSpan> CURRENT = new ThreadLocal<>();

    private ActiveSpans() {
    }

    static TraceSpan current() {
        TraceSpan span = CURRENT.get();
        return span == null ? TraceSpan.NONE : span;
    }

    static TraceSpan.Scope activate(TraceSpan span) {
        TraceSpan previous = CURRENT.get();
        CURRENT.set(span);
        return () -> {
            if (previous == null) {
                CURRENT.remove();
            } else {
                CURRENT.set(previous);
            }
        };
    }
}
