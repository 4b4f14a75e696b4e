package io.kaas.domain.fetch;

/**
 * The session id and epoch a Fetch request carries (KIP-227). Id 0 names no session; epoch 0 asks for a
 * full fetch that opens a new session, epoch -1 for a full fetch that opens none (and closes the named one);
 * any other epoch is the next incremental fetch of the named session.
 */
public final class FetchSessionEpoch {
    /** The session id of a fetch in no session, and of an answer that opened none. */
    public static final int NO_SESSION = 0;
    /** A full fetch that opens a session. */
    public static final int INITIAL = 0;
    /** A full fetch that opens none: a sessionless client, or one closing its session. */
    public static final int FINAL = -1;

    private FetchSessionEpoch() {
    }

    /** Whether a request with this epoch is full (names every partition it wants) rather than incremental. */
    public static boolean isFull(int epoch) {
        return epoch == INITIAL || epoch == FINAL;
    }

    /** The epoch after {@code epoch}: wraps to 1, skipping the two full-fetch epochs. */
    public static int next(int epoch) {
        if (epoch < 0) {
            return FINAL;
        }
        return epoch == Integer.MAX_VALUE ? 1 : epoch + 1;
    }
}
