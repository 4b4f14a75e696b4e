package io.kaas.adapter.fs.log;

import io.kaas.application.log.LogEngine;
import io.kaas.application.log.PartitionLog;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * What a {@code TopicService} does with a move's swap: serves one log per partition, the new one after a switch,
 * none when the replacement is null (a mover superseded by a newer leader serves neither copy).
 */
final class ServedLog implements LogEngine.LogSwap {
    final AtomicReference<PartitionLog> log = new AtomicReference<>();

    ServedLog(PartitionLog log) {
        this.log.set(log);
    }

    @Override
    public boolean swap(PartitionLog current, Supplier<PartitionLog> replacement) {
        if (log.get() != current) {
            return false;
        }
        log.set(null);
        log.set(replacement.get());
        return true;
    }
}
