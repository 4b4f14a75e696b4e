package io.kaas.operator.model;

import io.kaas.adapter.k8s.crd.TopicStorage;
import java.util.List;
import java.util.Map;

/** Which pool volumes a topic's {@code spec.storage} lets its new partitions land on (the book's volume pool). */
public final class VolumeBinding {
    private VolumeBinding() {
    }

    /** The outcome: the eligible volume names in pool order, or why the binding is refused. */
    public sealed interface Eligible permits Volumes, Invalid {
    }

    /** The volumes new partitions go to, round-robin; never empty. */
    public record Volumes(List<String> names) implements Eligible {
    }

    public record Invalid(Refusal refusal) implements Eligible {
    }

    /**
     * Unset: every default-eligible member. {@code volumes}: exactly those, each a member. {@code volumeSelector}:
     * the members carrying all its labels, at least one. A binding naming an unknown member or selecting nothing is
     * refused rather than placed somewhere the user did not intend.
     */
    public static Eligible resolve(TopicStorage storage, List<PoolVolume> pool) {
        List<String> volumes = storage == null ? null : storage.getVolumes();
        Map<String, String> selector = storage == null ? null : storage.getVolumeSelector();
        if (volumes != null && selector != null) {
            return invalid("spec.storage sets both volumes and volumeSelector; they are mutually exclusive");
        }
        if (volumes != null && !volumes.isEmpty()) {
            List<String> members = pool.stream().map(PoolVolume::name).toList();
            List<String> unknown = volumes.stream().filter(v -> !members.contains(v)).toList();
            if (!unknown.isEmpty()) {
                return invalid("spec.storage.volumes names " + unknown + ", not in the volume pool " + members);
            }
            return new Volumes(volumes.stream().distinct().toList());
        }
        if (selector != null) {
            List<String> selected = pool.stream()
                    .filter(v -> v.labels().entrySet().containsAll(selector.entrySet()))
                    .map(PoolVolume::name).toList();
            return selected.isEmpty()
                    ? invalid("spec.storage.volumeSelector " + selector + " selects no volume of the pool")
                    : new Volumes(selected);
        }
        return new Volumes(pool.stream().filter(PoolVolume::defaultEligible).map(PoolVolume::name).toList());
    }

    private static Invalid invalid(String message) {
        return new Invalid(new Refusal(Refusal.INVALID_VOLUME_BINDING, message));
    }
}
