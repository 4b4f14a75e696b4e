package io.kaas.domain.idempotence;

/**
 * Proof that the transaction coordinator was asked, for one producer on one partition, whether the
 * partition is part of the producer's transaction (KIP-890's verification, as Apache 3.7 runs it).
 * The table hands one out before the coordinator is asked and forgets it when a marker or an epoch
 * bump intervenes; a transactional batch that would start a transaction is appended only with the
 * guard still current, so a transaction that ended while the coordinator was being asked cannot
 * be resurrected by a late batch (which would leave the partition's last stable offset stuck).
 *
 * <p>Compared by identity. Like Apache's verification entries, a guard never used expires with
 * {@code producer.id.expiration.ms}, counted from when it was handed out.
 */
public final class VerificationGuard {
    /** For appends that need no verification: the producer already has a transaction here, or the caller is trusted. */
    public static final VerificationGuard NOT_REQUIRED = new VerificationGuard(Long.MAX_VALUE);

    private final long createdMs;

    VerificationGuard(long createdMs) {
        this.createdMs = createdMs;
    }

    long createdMs() {
        return createdMs;
    }
}
