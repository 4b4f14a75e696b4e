package io.kaas.application.port.out;

/** The persisted end of this broker's current producer-id block ({@code __cluster/producer_ids/}). */
public interface ProducerIdBlockStore {
    /** The last persisted block end, 0 when none was ever persisted. */
    long load();

    /** Persists a new block end durably before returning. */
    void persist(long blockEnd);
}
