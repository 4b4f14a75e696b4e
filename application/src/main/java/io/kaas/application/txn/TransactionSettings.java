package io.kaas.application.txn;

/**
 * The transaction coordinator's settings, with Apache's names and defaults.
 *
 * @param maxTimeoutMs             {@code transaction.max.timeout.ms}: longer producer timeouts are refused (900000)
 * @param abortTimedOutIntervalMs  {@code transaction.abort.timed.out.transaction.cleanup.interval.ms}: how often
 *                                 overdue transactions are aborted and prepared ones completed (10000)
 * @param idExpirationMs           {@code transactional.id.expiration.ms}: an idle transactional id is forgotten
 *                                 after this long (604800000, 7 days)
 * @param removeExpiredIntervalMs  {@code transaction.remove.expired.transaction.cleanup.interval.ms}: how often
 *                                 idle ids are looked for (3600000)
 * @param partitionVerification    {@code transaction.partition.verification.enable}: a transactional batch that
 *                                 would start a transaction on a partition must be confirmed by the coordinator (true)
 */
public record TransactionSettings(long maxTimeoutMs, long abortTimedOutIntervalMs, long idExpirationMs,
                                  long removeExpiredIntervalMs, boolean partitionVerification) {
    public static final TransactionSettings DEFAULTS = new TransactionSettings(900_000L, 10_000L, 604_800_000L,
            3_600_000L, true);
}
