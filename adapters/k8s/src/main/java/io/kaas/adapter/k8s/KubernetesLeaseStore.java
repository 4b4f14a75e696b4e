package io.kaas.adapter.k8s;

import io.fabric8.kubernetes.api.model.coordination.v1.LeaseList;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.NonNamespaceOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.kaas.application.port.out.LeaseStore;
import java.net.HttpURLConnection;
import java.util.Objects;
import java.util.Optional;

/**
 * The controller {@link LeaseStore} on a coordination.k8s.io/v1 Lease, using the API server's optimistic concurrency:
 * a create fails if the Lease exists, an update carries the resourceVersion that was read and fails if anyone wrote
 * since. Either failure is a lost race, answered as empty; who takes, renews or releases is the application's call.
 *
 * <p>An update replaces the whole object: the Lease belongs to kaas, labels or annotations others put on it are not
 * kept. How long a call may block is the client's business (its request timeout and retry settings).
 */
public final class KubernetesLeaseStore implements LeaseStore {

    /** The Lease every broker of a cluster competes for, unless configured otherwise. */
    public static final String DEFAULT_NAME = "kaas-controller";

    private final KubernetesClient client;
    private final String namespace;
    private final String name;

    public KubernetesLeaseStore(KubernetesClient client, String namespace) {
        this(client, namespace, DEFAULT_NAME);
    }

    public KubernetesLeaseStore(KubernetesClient client, String namespace, String name) {
        this.client = Objects.requireNonNull(client, "client");
        this.namespace = Objects.requireNonNull(namespace, "namespace");
        this.name = Objects.requireNonNull(name, "name");
    }

    @Override
    public Optional<Lease> read() {
        try {
            return Optional.ofNullable(leases().withName(name).get()).map(LeaseMapping::fromResource);
        } catch (KubernetesClientException e) {
            throw failure("read", e);
        }
    }

    @Override
    public Optional<Lease> write(Optional<Lease> expected, Lease next) {
        String expectedVersion = expected.map(lease -> Objects.requireNonNull(lease.version(),
                "the expected Lease must be one that was read (it has a version)")).orElse(null);
        var written = leases().resource(LeaseMapping.toResource(namespace, name, next, expectedVersion));
        try {
            var stored = expected.isEmpty() ? written.create() : written.update();
            return Optional.of(LeaseMapping.fromResource(stored));
        } catch (KubernetesClientException e) {
            if (lostRace(e, expected.isPresent())) {
                return Optional.empty();
            }
            throw failure("write", e);
        }
    }

    /**
     * 409 is a create that found the Lease, or an update whose resourceVersion is stale. 404 on an update means the
     * Lease was deleted since it was read: also not the expected Lease any more.
     */
    private static boolean lostRace(KubernetesClientException e, boolean updating) {
        return e.getCode() == HttpURLConnection.HTTP_CONFLICT
                || (updating && e.getCode() == HttpURLConnection.HTTP_NOT_FOUND);
    }

    /** The fabric8 type is spelled out: inside a {@link LeaseStore}, {@code Lease} is the port's record. */
    private NonNamespaceOperation<io.fabric8.kubernetes.api.model.coordination.v1.Lease, LeaseList,
            Resource<io.fabric8.kubernetes.api.model.coordination.v1.Lease>> leases() {
        return client.leases().inNamespace(namespace);
    }

    private LeaseStoreException failure(String operation, KubernetesClientException e) {
        String status = e.getCode() > 0 ? "HTTP " + e.getCode() : "no response";
        return new LeaseStoreException(operation + " of Lease " + namespace + "/" + name + " failed (" + status + ")", e);
    }
}
