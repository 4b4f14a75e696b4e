package io.kaas.adapter.heartbeat;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The threads a transport owns, instead of gRPC's shared defaults: one Netty event loop for every
 * socket, and a scheduler for beats, reconnects and gRPC callbacks (the port's "transport's threads").
 * Daemon threads named {@code kaas-heartbeat-*}, so a forgotten transport never keeps the JVM alive
 * and a thread dump says whose they are.
 */
final class TransportThreads {
    /** Two, so a slow callback on one does not hold up the beats on the other. */
    private static final int SCHEDULER_THREADS = 2;

    private final EventLoopGroup io = new MultiThreadIoEventLoopGroup(1,
            new DefaultThreadFactory("kaas-heartbeat-io", true), NioIoHandler.newFactory());
    private final ScheduledExecutorService scheduler = Executors.newScheduledThreadPool(SCHEDULER_THREADS,
            new DefaultThreadFactory("kaas-heartbeat", true));

    EventLoopGroup io() {
        return io;
    }

    ScheduledExecutorService scheduler() {
        return scheduler;
    }

    /** Stops both, waiting a second or two at most; call after the servers and channels on them have stopped. */
    void close() {
        scheduler.shutdownNow();
        io.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(2, TimeUnit.SECONDS);
        try {
            scheduler.awaitTermination(1, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
