package io.kaas.operator.model;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.adapter.k8s.crd.TopicStorage;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The volume pool's binding and placement rules, on a pool of three members. */
class VolumePlacementTest {
    private static final List<PoolVolume> POOL = List.of(PoolVolume.DATA_VOLUME,
            new PoolVolume("bulk", Map.of("class", "standard"), true, false),
            new PoolVolume("premium", Map.of("class", "premium"), false, false));

    @Test
    void anUnboundTopicMayUseTheDefaultEligibleMembers() {
        assertThat(VolumeBinding.resolve(null, POOL)).isEqualTo(new VolumeBinding.Volumes(List.of("default", "bulk")));
    }

    @Test
    void namedVolumesMustBeMembersAndSelectorsMustSelectOne() {
        assertThat(VolumeBinding.resolve(storage(List.of("premium"), null), POOL))
                .isEqualTo(new VolumeBinding.Volumes(List.of("premium")));
        assertThat(VolumeBinding.resolve(storage(null, Map.of("class", "premium")), POOL))
                .isEqualTo(new VolumeBinding.Volumes(List.of("premium")));
        assertThat(VolumeBinding.resolve(storage(List.of("fast"), null), POOL)).isInstanceOf(VolumeBinding.Invalid.class);
        assertThat(VolumeBinding.resolve(storage(null, Map.of("class", "gold")), POOL))
                .isInstanceOf(VolumeBinding.Invalid.class);
        assertThat(VolumeBinding.resolve(storage(List.of("bulk"), Map.of("class", "standard")), POOL))
                .isInstanceOf(VolumeBinding.Invalid.class);
    }

    @Test
    void newPartitionsGoRoundRobinAndExistingOnesStayWhereTheyAre() {
        VolumePlacement grown = VolumePlacement.place(Map.of("0", "default", "1", "bulk"), 2, 5, List.of("premium"),
                List.of("premium"));

        assertThat(grown.assignments()).containsExactly(Map.entry("0", "default"), Map.entry("1", "bulk"),
                Map.entry("2", "premium"), Map.entry("3", "premium"), Map.entry("4", "premium"));
        assertThat(grown.partitionsOutsideSpec()).isEqualTo(2);
        assertThat(VolumePlacement.place(Map.of(), 0, 3, List.of("default", "bulk"), List.of("default", "bulk"))
                .assignments())
                .containsExactly(Map.entry("0", "default"), Map.entry("1", "bulk"), Map.entry("2", "default"));
    }

    @Test
    void anExistingPartitionWithoutARecordIsOnTheDataVolume() {
        assertThat(VolumePlacement.place(null, 1, 1, List.of("default"), List.of("default"))).isEqualTo(
                new VolumePlacement(Map.of("0", "default"), 0));
    }

    @Test
    void aCordonedMemberTakesNoNewPartitionsEvenWhenNamedAndItsPartitionsAreNotOutsideTheSpec() {
        VolumePlacement placement = VolumePlacement.place(Map.of("0", "bulk"), 1, 4, List.of("bulk", "premium"),
                List.of("premium"));

        assertThat(placement.assignments()).containsExactly(Map.entry("0", "bulk"), Map.entry("1", "premium"),
                Map.entry("2", "premium"), Map.entry("3", "premium"));
        assertThat(placement.partitionsOutsideSpec()).isZero();
    }

    @Test
    void aNewPartitionWithARecordedVolumeKeepsItTheOthersTakeTheirTurn() {
        VolumePlacement placement = VolumePlacement.place(Map.of("0", "default"), 0, 3, List.of("bulk"),
                List.of("bulk"));

        assertThat(placement.assignments()).containsExactly(Map.entry("0", "default"), Map.entry("1", "bulk"),
                Map.entry("2", "bulk"));
        assertThat(placement.partitionsOutsideSpec()).isEqualTo(1);
    }

    private static TopicStorage storage(List<String> volumes, Map<String, String> selector) {
        TopicStorage storage = new TopicStorage();
        storage.setVolumes(volumes);
        storage.setVolumeSelector(selector);
        return storage;
    }
}
