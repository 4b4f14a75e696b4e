package io.kaas.operator.model;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Where each partition lives, decided once when the partition is created: a partition with a recorded volume keeps it
 * (a binding change never moves data), new ones go round-robin over the eligible volumes.
 *
 * @param assignments           volume by partition index ("0", "1", ...), in partition order
 * @param partitionsOutsideSpec partitions on a volume the binding does not select now
 */
public record VolumePlacement(Map<String, String> assignments, int partitionsOutsideSpec) {

    /**
     * @param recorded           the placements recorded so far (each partition's record in force), by partition
     *                           index; an existing partition without a record is on the data volume, where a
     *                           single-volume layout put it
     * @param existingPartitions how many partitions exist already
     * @param partitions         how many there are to be
     * @param eligible           what the binding selects: a partition elsewhere is outside the spec
     * @param open               where new partitions go (the eligible volumes not cordoned); not empty when there are
     *                           new partitions
     */
    public static VolumePlacement place(Map<String, String> recorded, int existingPartitions, int partitions,
                                        List<String> eligible, List<String> open) {
        Map<String, String> assignments = new LinkedHashMap<>();
        int outside = 0;
        for (int p = 0; p < partitions; p++) {
            String key = Integer.toString(p);
            String volume = recorded == null ? null : recorded.get(key);
            if (volume == null) {
                volume = p < existingPartitions ? PoolVolume.DEFAULT_NAME : open.get(p % open.size());
            }
            assignments.put(key, volume);
            if (!eligible.contains(volume)) {
                outside++;
            }
        }
        return new VolumePlacement(assignments, outside);
    }
}
