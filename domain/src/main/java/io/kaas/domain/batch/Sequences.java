package io.kaas.domain.batch;

/** Producer sequence arithmetic: sequences wrap from {@code Integer.MAX_VALUE} to 0. */
public final class Sequences {
    private Sequences() {
    }

    public static int increment(int sequence, int increment) {
        if (sequence > Integer.MAX_VALUE - increment) {
            return increment - (Integer.MAX_VALUE - sequence) - 1;
        }
        return sequence + increment;
    }

    /** Whether {@code next} directly follows {@code last}. */
    public static boolean follows(int last, int next) {
        return next == last + 1L || (next == 0 && last == Integer.MAX_VALUE);
    }
}
