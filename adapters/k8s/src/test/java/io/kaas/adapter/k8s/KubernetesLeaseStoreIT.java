package io.kaas.adapter.k8s;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kaas.application.port.out.LeaseStore.Lease;
import io.kaas.application.port.out.LeaseStore.LeaseStoreException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The Lease on the development API server: creates, reads, conditional updates and the lost races. */
class KubernetesLeaseStoreIT {
    private static final String LEASES = "/apis/coordination.k8s.io/v1/namespaces/test/leases";

    private final CrudApiServer apiServer = new CrudApiServer();
    private final KubernetesClient client = apiServer.client(config -> config.withRequestRetryBackoffLimit(0));
    private final KubernetesLeaseStore store = new KubernetesLeaseStore(client, "test");

    @AfterEach
    void stop() {
        client.close();
        apiServer.close();
    }

    @Test
    void aLeaseThatDoesNotExistReadsEmpty() {
        assertThat(store.read()).isEmpty();
    }

    @Test
    void theFirstWriteCreatesTheLeaseAndReadsBackAsStored() {
        Lease taken = new Lease("kaas-0", 1, 15, 1_700_000_000_123L, 1_700_000_000_123L, null);

        Optional<Lease> stored = store.write(Optional.empty(), taken);

        assertThat(stored).hasValueSatisfying(lease -> {
            assertThat(lease.version()).isNotBlank();
            assertThat(lease).isEqualTo(taken.withVersion(lease.version()));
        });
        assertThat(store.read()).isEqualTo(stored);
        assertThat(client.leases().inNamespace("test").withName(KubernetesLeaseStore.DEFAULT_NAME).get().getSpec()
                .getHolderIdentity()).isEqualTo("kaas-0");
    }

    @Test
    void aCreateThatFindsTheLeaseLosesTheRace() {
        store.write(Optional.empty(), taken("kaas-0", 1));

        assertThat(store.write(Optional.empty(), taken("kaas-1", 1))).isEmpty();
        assertThat(store.read()).hasValueSatisfying(lease -> assertThat(lease.holder()).isEqualTo("kaas-0"));
    }

    @Test
    void anUpdateFromTheVersionReadSucceedsWithANewVersion() {
        Lease created = store.write(Optional.empty(), taken("kaas-0", 1)).orElseThrow();

        Lease renewed = store.write(Optional.of(created), renewed(created, 5_000)).orElseThrow();

        assertThat(renewed.version()).isNotEqualTo(created.version());
        assertThat(store.read()).contains(renewed);
    }

    @Test
    void anUpdateFromAStaleVersionLosesTheRace() {
        Lease created = store.write(Optional.empty(), taken("kaas-0", 1)).orElseThrow();
        store.write(Optional.of(created), renewed(created, 5_000)).orElseThrow();

        assertThat(store.write(Optional.of(created), taken("kaas-1", 2))).isEmpty();
        assertThat(store.read()).hasValueSatisfying(lease -> assertThat(lease.holder()).isEqualTo("kaas-0"));
    }

    @Test
    void anUpdateOfALeaseDeletedSinceItWasReadLosesTheRace() {
        Lease created = store.write(Optional.empty(), taken("kaas-0", 1)).orElseThrow();
        client.leases().inNamespace("test").withName(KubernetesLeaseStore.DEFAULT_NAME).delete();

        assertThat(store.write(Optional.of(created), renewed(created, 5_000))).isEmpty();
    }

    @Test
    void ofEightWritersRacingFromOneVersionExactlyOneWins() throws Exception {
        Lease released = store.write(Optional.empty(), new Lease("", 4, 15, 0, 0, null)).orElseThrow();
        ExecutorService writers = Executors.newFixedThreadPool(8);
        try {
            CountDownLatch go = new CountDownLatch(1);
            List<Future<Optional<Lease>>> results = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                Lease mine = taken("kaas-" + i, 5);
                KubernetesLeaseStore own = new KubernetesLeaseStore(client, "test");
                results.add(writers.submit(() -> {
                    go.await();
                    return own.write(Optional.of(released), mine);
                }));
            }
            go.countDown();
            List<Lease> won = new ArrayList<>();
            for (Future<Optional<Lease>> result : results) {
                result.get(30, TimeUnit.SECONDS).ifPresent(won::add);
            }

            assertThat(won).hasSize(1);
            assertThat(store.read()).contains(won.get(0));
        } finally {
            writers.shutdownNow();
        }
    }

    @Test
    void transitionsDurationAndTimesRoundTrip() {
        Lease created = store.write(Optional.empty(), new Lease("kaas-2", 41, 20, 1_000_123L, 2_000_456L, null))
                .orElseThrow();
        Lease handedOver = new Lease("kaas-1", 42, 10, 1_700_000_000_001L, 1_700_000_009_999L, null);

        store.write(Optional.of(created), handedOver).orElseThrow();

        assertThat(store.read()).hasValueSatisfying(lease ->
                assertThat(lease.withVersion(null)).isEqualTo(handedOver));
    }

    @Test
    void aLeaseOfAnotherNameIsAnotherLease() {
        KubernetesLeaseStore other = new KubernetesLeaseStore(client, "test", "kaas-other");
        other.write(Optional.empty(), taken("kaas-3", 1)).orElseThrow();

        assertThat(store.read()).isEmpty();
        assertThat(other.read()).hasValueSatisfying(lease -> assertThat(lease.holder()).isEqualTo("kaas-3"));
    }

    @Test
    void anUnreachableServerFailsReadsAndWrites() throws IOException {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = socket.getLocalPort();
        }
        try (KubernetesClient unreachable = CrudApiServer.clientOf("http://127.0.0.1:" + closedPort,
                config -> config.withRequestRetryBackoffLimit(0))) {
            KubernetesLeaseStore nowhere = new KubernetesLeaseStore(unreachable, "test");

            assertThatThrownBy(nowhere::read).isInstanceOf(LeaseStoreException.class)
                    .hasMessageContaining("test/kaas-controller");
            assertThatThrownBy(() -> nowhere.write(Optional.empty(), taken("kaas-0", 1)))
                    .isInstanceOf(LeaseStoreException.class);
        }
    }

    @Test
    void aServerErrorOrARefusalIsAFailureNotALostRace() {
        Lease created = store.write(Optional.empty(), taken("kaas-0", 1)).orElseThrow();
        apiServer.server().expect().put().withPath(LEASES + "/kaas-controller")
                .andReturn(500, status(500, "InternalError")).always();
        apiServer.server().expect().post().withPath(LEASES).andReturn(403, status(403, "Forbidden")).always();
        apiServer.server().expect().get().withPath(LEASES + "/kaas-controller")
                .andReturn(503, status(503, "ServiceUnavailable")).always();

        assertThatThrownBy(() -> store.write(Optional.of(created), renewed(created, 1)))
                .isInstanceOf(LeaseStoreException.class).hasMessageContaining("HTTP 500");
        assertThatThrownBy(() -> store.write(Optional.empty(), taken("kaas-1", 1)))
                .isInstanceOf(LeaseStoreException.class).hasMessageContaining("HTTP 403");
        assertThatThrownBy(store::read).isInstanceOf(LeaseStoreException.class).hasMessageContaining("HTTP 503");
    }

    private static Lease taken(String holder, long transitions) {
        return new Lease(holder, transitions, 15, 1_700_000_000_000L, 1_700_000_000_000L, null);
    }

    private static Lease renewed(Lease lease, long laterMs) {
        return new Lease(lease.holder(), lease.transitions(), lease.durationSeconds(), lease.acquireTimeMs(),
                lease.renewTimeMs() + laterMs, null);
    }

    private static io.fabric8.kubernetes.api.model.Status status(int code, String reason) {
        return new StatusBuilder().withCode(code).withReason(reason).withStatus("Failure").build();
    }
}
