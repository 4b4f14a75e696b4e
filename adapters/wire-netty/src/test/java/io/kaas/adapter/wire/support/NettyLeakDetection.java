package io.kaas.adapter.wire.support;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.util.ResourceLeakDetector;
import io.netty.util.ResourceLeakDetectorFactory;
import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Turns Netty's paranoid leak reports into test failures. Netty only logs a leak when a buffer
 * nobody released is garbage collected; this extension installs a detector factory that records
 * those reports, and after each test class collects garbage and fails if any were made. It
 * complements the exact checks ({@link RecordingAllocator}, refCnt assertions), catching buffers
 * allocated elsewhere (slices, kafka-clients' wrappers).
 *
 * <p>The factory must be in place before Netty creates its ByteBuf detector, so every test class
 * that touches Netty carries this extension; {@link #beforeAll} fails if it came too late.
 */
public final class NettyLeakDetection implements BeforeAllCallback, AfterAllCallback {
    private static final Queue<String> LEAKS = new ConcurrentLinkedQueue<>();
    private static final Set<Class<?>> TRACKED = ConcurrentHashMap.newKeySet();
    private static final int GC_ROUNDS = 3;
    private static final long GC_WAIT_MS = 2_000;

    static {
        ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.PARANOID);
        ResourceLeakDetectorFactory.setResourceLeakDetectorFactory(new RecordingFactory());
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        Unpooled.directBuffer(1).release(); // makes Netty create its ByteBuf detector if nothing has yet
        assertThat(TRACKED).as("Netty's ByteBuf leak detector was created before this extension was loaded; "
                + "add @ExtendWith(NettyLeakDetection.class) to every test class that uses Netty").contains(ByteBuf.class);
    }

    @Override
    public void afterAll(ExtensionContext context) {
        for (int i = 0; i < GC_ROUNDS && LEAKS.isEmpty(); i++) {
            collectGarbage();
            Unpooled.directBuffer(1).release(); // each tracked allocation polls the detector's reference queue
        }
        List<String> leaks = new ArrayList<>();
        String leak;
        while ((leak = LEAKS.poll()) != null) {
            leaks.add(leak);
        }
        assertThat(leaks).as("Netty leak reports after %s", context.getDisplayName()).isEmpty();
    }

    /**
     * Runs a collection and waits until the JVM has enqueued the references it cleared, using a
     * sentinel object's reference as the signal (a wait for an event, not a sleep).
     */
    private static void collectGarbage() {
        ReferenceQueue<Object> queue = new ReferenceQueue<>();
        WeakReference<Object> sentinel = new WeakReference<>(new Object(), queue);
        System.gc();
        try {
            queue.remove(GC_WAIT_MS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        sentinel.clear();
    }

    private static final class RecordingFactory extends ResourceLeakDetectorFactory {
        @Override
        @SuppressWarnings("deprecation")
        public <T> ResourceLeakDetector<T> newResourceLeakDetector(Class<T> resource, int samplingInterval,
                                                                   long maxActive) {
            TRACKED.add(resource);
            return new ResourceLeakDetector<>(resource, samplingInterval) {
                @Override
                protected boolean needReport() {
                    return true;
                }

                @Override
                protected void reportTracedLeak(String resourceType, String records) {
                    LEAKS.add("LEAK: " + resourceType + ".release() was not called" + records);
                }

                @Override
                protected void reportUntracedLeak(String resourceType) {
                    LEAKS.add("LEAK: " + resourceType + ".release() was not called");
                }
            };
        }
    }
}
