package io.kaas.adapter.wire.support;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * What a handler test starts from: a fresh {@link InMemoryBroker} per test and one client
 * connection to it, {@link #wire}, open during the test. Closing the connection after the test
 * checks that no buffer leaked; Netty's own leak reports fail the class ({@link NettyLeakDetection}).
 *
 * <p>JUnit runs this class's {@code @BeforeEach} before a subclass's, so a subclass's setup may
 * already create topics and produce through {@link #wire}.
 */
@ExtendWith(NettyLeakDetection.class)
public abstract class HandlerTestBase {
    protected final InMemoryBroker broker = new InMemoryBroker();
    protected WireChannel wire;

    @BeforeEach
    protected final void openWire() {
        wire = new WireChannel(broker.registry());
    }

    @AfterEach
    protected final void closeWire() {
        wire.close();
    }
}
