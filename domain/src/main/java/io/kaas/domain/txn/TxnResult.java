package io.kaas.domain.txn;

import java.util.List;

/**
 * What handling one command did: its response, the events it emitted (in order), and the
 * transaction with those events applied - the state to persist before answering.
 */
public record TxnResult<R>(R response, List<TxnEvent> events, Transaction next) {
    public TxnResult {
        events = List.copyOf(events);
    }

    /** Whether the transaction changed (and must be persisted). */
    public boolean changed() {
        return !events.isEmpty();
    }
}
