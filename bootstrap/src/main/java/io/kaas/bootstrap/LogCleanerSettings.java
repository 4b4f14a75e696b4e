package io.kaas.bootstrap;

/**
 * The log cleaner's broker settings (Apache's {@code log.cleaner.*}).
 *
 * @param ioMaxBytesPerSecond {@code KAAS_LOG_CLEANER_IO_MAX_BYTES_PER_SECOND}: the cleaner's read plus write
 *                            rate ({@code log.cleaner.io.max.bytes.per.second}; 0, the default, means unlimited)
 * @param backoffMs           {@code KAAS_LOG_CLEANER_BACKOFF_MS}: the pause after a pass that found nothing to
 *                            clean ({@code log.cleaner.backoff.ms}, 15000)
 * @param dedupeBufferSize    {@code KAAS_LOG_CLEANER_DEDUPE_BUFFER_SIZE}: memory for one cleaning's offset map
 *                            ({@code log.cleaner.dedupe.buffer.size}, 134217728); about 100 bytes a key
 */
public record LogCleanerSettings(long ioMaxBytesPerSecond, long backoffMs, long dedupeBufferSize) {
    /** Approximate heap bytes of one offset-map entry (digest, boxed offset, hash-map node). */
    static final int BYTES_PER_KEY = 100;

    public static final LogCleanerSettings DEFAULTS = new LogCleanerSettings(0, 15_000, 128L * 1024 * 1024);

    /** The most keys one cleaning's offset map holds. */
    int mapCapacity() {
        return (int) Math.max(1, Math.min(Integer.MAX_VALUE, dedupeBufferSize / BYTES_PER_KEY));
    }
}
