package io.kaas.bootstrap.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kaas.adapter.k8s.crd.AuthenticationType;
import io.kaas.adapter.k8s.crd.KafkaUser;
import io.kaas.adapter.k8s.crd.UserQuotas;
import io.kaas.bootstrap.testing.LocalCluster;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.admin.UserScramCredentialUpsertion;
import org.apache.kafka.common.quota.ClientQuotaAlteration;
import org.apache.kafka.common.quota.ClientQuotaEntity;
import org.apache.kafka.common.quota.ClientQuotaFilter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * In a cluster the SCRAM and quota admin APIs write KafkaUsers, the resources the operator writes credentials.json
 * from: what {@code kafka-configs --alter --entity-type users} sends through a real AdminClient lands on a KafkaUser
 * created for the user, the operator materialises it, and the brokers' reload puts it in effect: both mechanisms are
 * described, the user logs in with its password, and DescribeClientQuotas shows its quotas.
 */
class ClusterUserAdminIT {
    private static final Duration DEADLINE = Duration.ofSeconds(60);
    private static final String USER = "billing";

    @TempDir
    Path dir;

    @Test
    void credentialsAndQuotasWrittenThroughTheAdminApiLiveOnTheKafkaUserAndTakeEffect() throws Exception {
        try (LocalCluster cluster = LocalCluster.start(1, dir.resolve("cluster"), Map.of());
             Admin admin = Admin.create(Map.of("bootstrap.servers", cluster.bootstrapServers()));
             KubernetesClient kubernetes = cluster.kubernetesClient()) {
            admin.alterUserScramCredentials(List.of(
                    new UserScramCredentialUpsertion(USER, new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_256, 4096),
                            "two-five-six"),
                    new UserScramCredentialUpsertion(USER, new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_512, 8192),
                            "five-twelve"))).all().get(30, TimeUnit.SECONDS);

            KafkaUser created = kubernetes.resources(KafkaUser.class).withName(USER).get();
            assertThat(created).as("AlterUserScramCredentials made the user a KafkaUser").isNotNull();
            assertThat(created.getSpec().getAuthentication().getType()).isEqualTo(AuthenticationType.SCRAM_SHA_256);
            assertThat(created.getSpec().getAuthentication().getScram().getIterations()).isEqualTo(4096);
            assertThat(created.getSpec().getAuthentication().getAdditionalScram().getIterations()).isEqualTo(8192);

            await("the operator wrote credentials.json and the broker reloaded it").atMost(DEADLINE)
                    .ignoreExceptions().untilAsserted(() -> assertThat(admin.describeUserScramCredentials(
                            List.of(USER)).description(USER).get(10, TimeUnit.SECONDS).credentialInfos())
                            .extracting(ScramCredentialInfo::mechanism, ScramCredentialInfo::iterations)
                            .containsExactlyInAnyOrder(
                                    org.assertj.core.groups.Tuple.tuple(ScramMechanism.SCRAM_SHA_256, 4096),
                                    org.assertj.core.groups.Tuple.tuple(ScramMechanism.SCRAM_SHA_512, 8192)));
            // The cluster's SASL listener enables SCRAM-SHA-512 only; the SHA-256 credential is described above.
            assertThat(clusterIdAs(cluster, "five-twelve")).isNotEmpty();

            ClientQuotaEntity billing = new ClientQuotaEntity(Map.of(ClientQuotaEntity.USER, USER));
            admin.alterClientQuotas(List.of(new ClientQuotaAlteration(billing, List.of(
                    new ClientQuotaAlteration.Op("producer_byte_rate", 1_048_576.0),
                    new ClientQuotaAlteration.Op("request_percentage", 12.5))))).all().get(30, TimeUnit.SECONDS);

            UserQuotas quotas = kubernetes.resources(KafkaUser.class).withName(USER).get().getSpec().getQuotas();
            assertThat(quotas.getProducerMaxByteRatePerBroker()).isEqualTo(1_048_576L);
            assertThat(quotas.getRequestPercentage()).isEqualTo(12.5);
            await("the quotas reached credentials.json and the broker").atMost(DEADLINE).untilAsserted(() ->
                    assertThat(admin.describeClientQuotas(ClientQuotaFilter.all()).entities()
                            .get(10, TimeUnit.SECONDS)).containsExactly(Map.entry(billing,
                                    Map.of("producer_byte_rate", 1_048_576.0, "request_percentage", 12.5))));
        }
    }

    /** The cluster id, asked by a SCRAM client: it answers only once the client logged in. */
    private static String clusterIdAs(LocalCluster cluster, String password) throws Exception {
        try (Admin scram = Admin.create(cluster.scramClient(USER, password))) {
            return scram.describeCluster().clusterId().get(30, TimeUnit.SECONDS);
        }
    }
}
