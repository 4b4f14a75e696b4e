package io.kaas.application.metrics;

import java.util.concurrent.atomic.LongAdder;

/** One topic's traffic since the broker started (or since the topic was created here). */
public final class TopicTraffic {
    private final LongAdder bytesIn = new LongAdder();
    private final LongAdder recordsIn = new LongAdder();
    private final LongAdder bytesOut = new LongAdder();

    /** A batch was appended: its size on the wire and the record count of its header. */
    public void appended(int bytes, int records) {
        bytesIn.add(bytes);
        recordsIn.add(records);
    }

    /** A Fetch answer carries {@code bytes} of this topic's batches. */
    public void sent(int bytes) {
        bytesOut.add(bytes);
    }

    public long bytesIn() {
        return bytesIn.sum();
    }

    public long recordsIn() {
        return recordsIn.sum();
    }

    public long bytesOut() {
        return bytesOut.sum();
    }
}
