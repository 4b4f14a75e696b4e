package io.kaas.adapter.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.kaas.application.port.out.LeaseStore;
import java.time.ZonedDateTime;
import org.junit.jupiter.api.Test;

class LeaseMappingTest {
    private static final KubernetesSerialization JSON = new KubernetesSerialization();

    @Test
    void everyFieldSurvivesTheWayThroughTheWireFormat() {
        LeaseStore.Lease lease = new LeaseStore.Lease("kaas-1", 7, 15, 1_700_000_000_123L, 1_700_000_004_567L, null);

        Lease resource = LeaseMapping.toResource("ns", "kaas-controller", lease, "42");
        Lease parsed = JSON.unmarshal(JSON.asJson(resource), Lease.class);

        assertThat(parsed.getMetadata().getName()).isEqualTo("kaas-controller");
        assertThat(parsed.getMetadata().getNamespace()).isEqualTo("ns");
        assertThat(LeaseMapping.fromResource(parsed)).isEqualTo(lease.withVersion("42"));
    }

    @Test
    void timesAreWrittenAsKubernetesMicroTimeInUtc() {
        Lease resource = LeaseMapping.toResource("ns", "l",
                new LeaseStore.Lease("a", 0, 15, 1_700_000_000_123L, 1_700_000_000_123L, null), null);

        assertThat(JSON.asJson(resource)).contains("\"renewTime\":\"2023-11-14T22:13:20.123000Z\"");
    }

    @Test
    void anEmptyLeaseReadsAsNoHolderNoTransitionsAndTimeZero() {
        Lease resource = new LeaseBuilder().withNewMetadata().withName("l").withResourceVersion("3").endMetadata()
                .withNewSpec().endSpec().build();

        assertThat(LeaseMapping.fromResource(resource)).isEqualTo(new LeaseStore.Lease("", 0, 0, 0, 0, "3"));
    }

    @Test
    void aLeaseWithoutSpecReadsAsEmpty() {
        Lease resource = new LeaseBuilder().withNewMetadata().withName("l").withResourceVersion("3").endMetadata().build();

        assertThat(LeaseMapping.fromResource(resource)).isEqualTo(new LeaseStore.Lease("", 0, 0, 0, 0, "3"));
    }

    @Test
    void aReleasedLeaseIsWrittenWithoutHolderOrTimes() {
        Lease resource = LeaseMapping.toResource("ns", "l", new LeaseStore.Lease("", 3, 15, 0, 0, "9"), null);

        assertThat(resource.getSpec().getHolderIdentity()).isNull();
        assertThat(resource.getSpec().getAcquireTime()).isNull();
        assertThat(resource.getSpec().getRenewTime()).isNull();
        assertThat(resource.getSpec().getLeaseTransitions()).isEqualTo(3);
        assertThat(resource.getMetadata().getResourceVersion()).as("a create carries no version").isNull();
    }

    @Test
    void timesInAnotherOffsetReadAsTheSameInstant() {
        Lease resource = new LeaseBuilder().withNewMetadata().withName("l").endMetadata().withNewSpec()
                .withRenewTime(ZonedDateTime.parse("2023-11-15T00:13:20.123456+02:00")).endSpec().build();

        assertThat(LeaseMapping.fromResource(resource).renewTimeMs()).isEqualTo(1_700_000_000_123L);
    }
}
