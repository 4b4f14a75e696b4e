package io.kaas.adapter.k8s;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseSpec;
import io.kaas.application.port.out.LeaseStore;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;

/**
 * Translates between the port's {@link LeaseStore.Lease} and the coordination.k8s.io/v1 object. Absent fields read as
 * the port's zero values (no holder, no transitions, time 0), and zero values are written as absent fields, so a Lease
 * written by kaas reads back unchanged and one written by another tool still reads.
 */
final class LeaseMapping {

    private LeaseMapping() {
    }

    static LeaseStore.Lease fromResource(Lease resource) {
        LeaseSpec spec = resource.getSpec() == null ? new LeaseSpec() : resource.getSpec();
        return new LeaseStore.Lease(
                spec.getHolderIdentity() == null ? "" : spec.getHolderIdentity(),
                spec.getLeaseTransitions() == null ? 0 : spec.getLeaseTransitions(),
                spec.getLeaseDurationSeconds() == null ? 0 : spec.getLeaseDurationSeconds(),
                epochMillis(spec.getAcquireTime()),
                epochMillis(spec.getRenewTime()),
                resource.getMetadata().getResourceVersion());
    }

    /**
     * @param resourceVersion the version the write is conditional on; null for a create
     */
    static Lease toResource(String namespace, String name, LeaseStore.Lease lease, String resourceVersion) {
        LeaseSpec spec = new LeaseSpec();
        spec.setHolderIdentity(lease.holder().isEmpty() ? null : lease.holder());
        spec.setLeaseTransitions(Math.toIntExact(lease.transitions()));
        spec.setLeaseDurationSeconds(lease.durationSeconds());
        spec.setAcquireTime(dateTime(lease.acquireTimeMs()));
        spec.setRenewTime(dateTime(lease.renewTimeMs()));
        Lease resource = new Lease();
        resource.setMetadata(new ObjectMetaBuilder()
                .withNamespace(namespace)
                .withName(name)
                .withResourceVersion(resourceVersion)
                .build());
        resource.setSpec(spec);
        return resource;
    }

    private static long epochMillis(ZonedDateTime time) {
        return time == null ? 0 : time.toInstant().toEpochMilli();
    }

    private static ZonedDateTime dateTime(long epochMillis) {
        return epochMillis == 0 ? null : ZonedDateTime.ofInstant(Instant.ofEpochMilli(epochMillis), ZoneOffset.UTC);
    }
}
