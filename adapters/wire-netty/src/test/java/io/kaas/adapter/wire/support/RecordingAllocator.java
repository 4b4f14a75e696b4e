package io.kaas.adapter.wire.support;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.AbstractByteBufAllocator;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.UnpooledHeapByteBuf;
import java.util.ArrayList;
import java.util.List;

/**
 * An unpooled heap allocator that remembers every buffer it hands out, so a test can assert that
 * the code under test released all of them: a deterministic leak check that does not wait for the
 * garbage collector as Netty's leak detector must.
 */
public final class RecordingAllocator extends AbstractByteBufAllocator {
    private final List<ByteBuf> allocated = new ArrayList<>();

    public RecordingAllocator() {
        super(false);
    }

    @Override
    protected ByteBuf newHeapBuffer(int initialCapacity, int maxCapacity) {
        return record(new UnpooledHeapByteBuf(this, initialCapacity, maxCapacity));
    }

    @Override
    protected ByteBuf newDirectBuffer(int initialCapacity, int maxCapacity) {
        // Heap memory is enough for tests; what matters is that the buffer is counted.
        return newHeapBuffer(initialCapacity, maxCapacity);
    }

    @Override
    public CompositeByteBuf compositeBuffer(int maxNumComponents) {
        return record(super.compositeBuffer(maxNumComponents));
    }

    @Override
    public CompositeByteBuf compositeHeapBuffer(int maxNumComponents) {
        return record(super.compositeHeapBuffer(maxNumComponents));
    }

    @Override
    public CompositeByteBuf compositeDirectBuffer(int maxNumComponents) {
        return record(super.compositeDirectBuffer(maxNumComponents));
    }

    @Override
    public boolean isDirectBufferPooled() {
        return false;
    }

    /** How many buffers were handed out so far. */
    public int allocations() {
        return allocated.size();
    }

    /** Buffers handed out and not yet released, in allocation order. */
    public List<ByteBuf> unreleased() {
        return allocated.stream().filter(b -> b.refCnt() != 0).toList();
    }

    public void assertAllReleased() {
        assertThat(unreleased()).as("buffers allocated by the code under test and never released").isEmpty();
    }

    private <B extends ByteBuf> B record(B buffer) {
        allocated.add(buffer);
        return buffer;
    }
}
