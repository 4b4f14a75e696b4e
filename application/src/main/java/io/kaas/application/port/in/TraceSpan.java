package io.kaas.application.port.in;

import java.util.concurrent.CompletionStage;

/**
 * One timed step of a sampled request (see {@link Tracer}). Spans may be started, annotated and
 * ended on any thread: a child is typically ended by the I/O thread that completes its step, the
 * request's span by the connection's event loop. None of it blocks.
 *
 * <p>The wire activates a request's span while its handler runs, so a use case reaches it with
 * {@link #current()} without every command carrying it; a use case that continues on another thread
 * takes it along and activates it there.
 */
public interface TraceSpan {
    /** The span of an unsampled request: records nothing, its children are itself. */
    TraceSpan NONE = new TraceSpan() {
        @Override
        public TraceSpan child(String name) {
            return this;
        }

        @Override
        public TraceSpan attribute(String key, long value) {
            return this;
        }

        @Override
        public TraceSpan attribute(String key, String value) {
            return this;
        }

        @Override
        public void fail(Throwable error) {
        }

        @Override
        public Scope activate() {
            return Scope.NONE;
        }

        @Override
        public <T, S extends CompletionStage<T>> S endWhenDone(S step) {
            return step;
        }

        @Override
        public void end() {
        }
    };

    /** The span {@link #activate() activated} on this thread; {@link #NONE} outside one (and for unsampled requests). */
    static TraceSpan current() {
        return ActiveSpans.current();
    }

    /** A span for a step of this one, started now ({@link #NONE} under an unsampled span). */
    TraceSpan child(String name);

    TraceSpan attribute(String key, long value);

    TraceSpan attribute(String key, String value);

    /** The step failed: the span is marked an error, with what happened. */
    void fail(Throwable error);

    /**
     * Makes this the current span of the calling thread until the scope closes: {@link #current()} answers it,
     * and log lines written meanwhile carry its trace and span ids. Close it on the same thread, before the
     * thread moves on.
     */
    default Scope activate() {
        return ActiveSpans.activate(this);
    }

    /** Ends this span when {@code step} completes, failed if it fails; returns {@code step}. */
    default <T, S extends CompletionStage<T>> S endWhenDone(S step) {
        step.whenComplete((result, error) -> {
            if (error != null) {
                fail(error);
            }
            end();
        });
        return step;
    }

    /** The step is over; later calls do nothing. */
    void end();

    /** The extent of an {@link #activate()}. */
    interface Scope extends AutoCloseable {
        Scope NONE = () -> { };

        @Override
        void close();
    }
}
