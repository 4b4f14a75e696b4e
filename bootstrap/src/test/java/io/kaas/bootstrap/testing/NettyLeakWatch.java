package io.kaas.bootstrap.testing;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.util.ResourceLeakDetector;
import io.netty.util.ResourceLeakDetectorFactory;
import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Turns Netty's leak detector (run at {@code paranoid} in tests) from log lines into test failures:
 * records every leak it reports, and on {@link #assertNoLeaks()} collects garbage so that buffers
 * dropped without {@code release()} are found. A leak surfaces only once its buffer is garbage,
 * so it may be reported after the test that caused it; the log has its access records.
 *
 * <p>Must be installed before Netty loads its buffer classes in this JVM; {@link EmbeddedKaas} does
 * so before it starts the first broker.
 */
public final class NettyLeakWatch {
    private static final List<String> LEAKS = new CopyOnWriteArrayList<>();
    private static boolean installed;

    private NettyLeakWatch() {
    }

    /** Installs the recording detector; a no-op after the first call. */
    public static synchronized void install() {
        if (installed) {
            return;
        }
        installed = true;
        ResourceLeakDetectorFactory.setResourceLeakDetectorFactory(new ResourceLeakDetectorFactory() {
            @Override
            public <T> ResourceLeakDetector<T> newResourceLeakDetector(Class<T> resource, int samplingInterval,
                                                                        long maxActive) {
                return new Recording<>(resource, samplingInterval);
            }

            @Override
            public <T> ResourceLeakDetector<T> newResourceLeakDetector(Class<T> resource, int samplingInterval) {
                return new Recording<>(resource, samplingInterval);
            }
        });
    }

    /** Collects garbage, lets the detector look, and fails if any leak was reported since the last call. */
    public static void assertNoLeaks() {
        if (ResourceLeakDetector.isEnabled()) {
            collectGarbage();
            // The detector (one for all buffers) checks for collected, unreleased ones whenever it tracks a new one.
            for (int i = 0; i < 4; i++) {
                ByteBuf probe = ByteBufAllocator.DEFAULT.heapBuffer(8);
                probe.release();
            }
        }
        List<String> leaks = new ArrayList<>(LEAKS);
        LEAKS.removeAll(leaks);
        if (!leaks.isEmpty()) {
            throw new AssertionError(leaks.size() + " Netty buffer leak(s) reported (release() never called); "
                    + "first:\n" + leaks.get(0));
        }
    }

    /** A full GC, waiting (briefly) until the weak references it cleared have been enqueued. */
    private static void collectGarbage() {
        ReferenceQueue<Object> queue = new ReferenceQueue<>();
        WeakReference<Object> sentinel = new WeakReference<>(new Object(), queue);
        System.gc();
        try {
            queue.remove(1_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        sentinel.clear();
    }

    private static final class Recording<T> extends ResourceLeakDetector<T> {
        Recording(Class<?> resourceType, int samplingInterval) {
            super(resourceType, samplingInterval);
        }

        @Override
        protected boolean needReport() {
            return true;
        }

        @Override
        protected void reportTracedLeak(String resourceType, String records) {
            LEAKS.add(resourceType + records);
            super.reportTracedLeak(resourceType, records);
        }

        @Override
        protected void reportUntracedLeak(String resourceType) {
            LEAKS.add(resourceType + " (no access records)");
            super.reportUntracedLeak(resourceType);
        }
    }
}
