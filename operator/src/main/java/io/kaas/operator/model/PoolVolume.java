package io.kaas.operator.model;

import java.util.Map;
import java.util.Objects;

/**
 * A member of the volume pool (one log dir, KIP-113).
 *
 * @param name            how topics name it; the data volume is {@link #DEFAULT_NAME}
 * @param labels          what a {@code volumeSelector} matches
 * @param defaultEligible whether topics without a binding may land on it
 * @param cordoned        accepts no new partitions, even from topics that name it (KIP-1066's cordon); those it holds
 *                        keep serving
 */
public record PoolVolume(String name, Map<String, String> labels, boolean defaultEligible, boolean cordoned) {
    /** The data volume's reserved name; it is always a member. */
    public static final String DEFAULT_NAME = "default";
    /** The data volume. */
    public static final PoolVolume DATA_VOLUME = new PoolVolume(DEFAULT_NAME, Map.of(), true, false);

    public PoolVolume {
        Objects.requireNonNull(name, "name");
        labels = Map.copyOf(labels);
    }
}
