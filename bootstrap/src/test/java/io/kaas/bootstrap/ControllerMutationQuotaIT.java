package io.kaas.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kaas.bootstrap.testing.EmbeddedKaas;
import io.kaas.bootstrap.testing.KaasBrokerExtension;
import io.kaas.bootstrap.testing.RawKafkaConnection;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.CreatePartitionsOptions;
import org.apache.kafka.clients.admin.CreateTopicsOptions;
import org.apache.kafka.clients.admin.DeleteTopicsOptions;
import org.apache.kafka.clients.admin.NewPartitions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.errors.ThrottlingQuotaExceededException;
import org.apache.kafka.common.message.CreateTopicsRequestData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.quota.ClientQuotaAlteration;
import org.apache.kafka.common.quota.ClientQuotaEntity;
import org.apache.kafka.common.requests.CreateTopicsRequest;
import org.apache.kafka.common.requests.CreateTopicsResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * KIP-599's {@code controller_mutation_rate} on a real AdminClient, each test on its own client id's quota of one
 * partition per second (a bucket of 11 with Apache's 11 one-second samples): a loop of creations soon gets
 * THROTTLING_QUOTA_EXCEEDED when the client does not retry; the Java client's default retries a refused creation
 * after the throttle, so it succeeds; a retry past the call's timeout fails with the quota error, as Apache's client
 * reports it; CreatePartitions and DeleteTopics are charged too; and an old CreateTopics version (v5) is never
 * refused, only throttled.
 */
class ControllerMutationQuotaIT {
    @RegisterExtension
    static final KaasBrokerExtension KAAS = KaasBrokerExtension.create();

    private static final double ONE_PER_SECOND = 1.0;

    @Test
    void aLoopOfCreationsWithoutRetriesIsRefusedWithThrottlingQuotaExceeded() throws Exception {
        try (Admin admin = adminWithQuota("mutation-loop")) {
            CreateTopicsOptions noRetry = new CreateTopicsOptions().retryOnQuotaViolation(false);
            Optional<ThrottlingQuotaExceededException> refused = Optional.empty();
            List<String> created = new ArrayList<>();
            for (int i = 0; i < 20 && refused.isEmpty(); i++) {
                String topic = EmbeddedKaas.uniqueTopicName("mutation-loop");
                try {
                    admin.createTopics(List.of(new NewTopic(topic, 8, (short) 1)), noRetry).all()
                            .get(30, TimeUnit.SECONDS);
                    created.add(topic);
                } catch (ExecutionException e) {
                    assertThat(e.getCause()).isInstanceOf(ThrottlingQuotaExceededException.class);
                    refused = Optional.of((ThrottlingQuotaExceededException) e.getCause());
                    assertThat(topicNames()).as("a refused topic is not made").doesNotContain(topic);
                }
            }
            assertThat(refused).as("8 partitions a go at 1/s: the 11-partition burst runs out within a few").isPresent();
            assertThat(created).hasSizeBetween(2, 19);
            assertThat(refused.get().throttleTimeMs()).as("the time its debt takes to pay back").isBetween(1, 8_000);
            assertThat(refused.get()).hasMessage("The throttling quota has been exceeded.");
        }
    }

    @Test
    void theJavaClientRetriesARefusedCreationAfterTheThrottleByDefault() throws Exception {
        try (Admin admin = adminWithQuota("mutation-retry")) {
            String burst = EmbeddedKaas.uniqueTopicName("mutation-burst");
            admin.createTopics(List.of(new NewTopic(burst, 16, (short) 1))).all().get(30, TimeUnit.SECONDS);

            // 5 partitions in debt: refused at first, retried by the client once the throttle has passed
            String retried = EmbeddedKaas.uniqueTopicName("mutation-retried");
            long start = System.nanoTime();
            admin.createTopics(List.of(new NewTopic(retried, 1, (short) 1))).all().get(60, TimeUnit.SECONDS);
            long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

            assertThat(topicNames()).contains(burst, retried);
            assertThat(tookMs).as("the retry waited out (most of) the throttle").isGreaterThanOrEqualTo(500);
        }
    }

    @Test
    void aRetryPastTheCallsTimeoutFailsWithTheQuotaError() throws Exception {
        try (Admin admin = adminWithQuota("mutation-timeout")) {
            admin.createTopics(List.of(new NewTopic(EmbeddedKaas.uniqueTopicName("mutation-debt"), 40, (short) 1)))
                    .all().get(30, TimeUnit.SECONDS);

            String topic = EmbeddedKaas.uniqueTopicName("mutation-late");
            assertThatThrownBy(() -> admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1)),
                    new CreateTopicsOptions().timeoutMs(2_000)).all().get(30, TimeUnit.SECONDS))
                    .as("29 partitions in debt: the throttle outlasts the 2 s call")
                    .hasCauseInstanceOf(ThrottlingQuotaExceededException.class);
            assertThat(topicNames()).as("(asked on another connection: this one is throttled for 29 s)")
                    .doesNotContain(topic);
        }
    }

    @Test
    void createPartitionsAndDeleteTopicsAreChargedToo() throws Exception {
        try (Admin admin = adminWithQuota("mutation-grow");
             Admin sameClientId = Admin.create(KAAS.kaas().adminConfig(Map.of(AdminClientConfig.CLIENT_ID_CONFIG,
                     "mutation-grow")))) {
            String topic = EmbeddedKaas.uniqueTopicName("mutation-grow");
            admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get(30, TimeUnit.SECONDS);
            // 10 credits left, 19 added: 9 in debt, 9 s to pay back
            admin.createPartitions(Map.of(topic, NewPartitions.increaseTo(20))).all().get(30, TimeUnit.SECONDS);

            assertThatThrownBy(() -> admin.createPartitions(Map.of(topic, NewPartitions.increaseTo(21)),
                    new CreatePartitionsOptions().retryOnQuotaViolation(false))
                    .all().get(30, TimeUnit.SECONDS)).hasCauseInstanceOf(ThrottlingQuotaExceededException.class);
            // on another connection: the refusal throttled this one until the debt is paid (KIP-219)
            assertThatThrownBy(() -> sameClientId.deleteTopics(List.of(topic),
                    new DeleteTopicsOptions().retryOnQuotaViolation(false))
                    .all().get(30, TimeUnit.SECONDS)).hasCauseInstanceOf(ThrottlingQuotaExceededException.class);
            try (Admin observer = Admin.create(KAAS.kaas().adminConfig(Map.of()))) {
                assertThat(observer.describeTopics(List.of(topic)).allTopicNames().get(30, TimeUnit.SECONDS).get(topic)
                        .partitions()).as("neither refused mutation happened").hasSize(20);
            }
        }
    }

    @Test
    void anOldCreateTopicsVersionIsNeverRefusedOnlyThrottled() throws Exception {
        setQuota("raw-it", ONE_PER_SECOND); // the raw connection's client id
        // one connection per request: a throttled one is not read until its throttle has passed (KIP-219)
        try (RawKafkaConnection first = RawKafkaConnection.connect(KAAS.kaas());
             RawKafkaConnection second = RawKafkaConnection.connect(KAAS.kaas());
             RawKafkaConnection third = RawKafkaConnection.connect(KAAS.kaas())) {
            CreateTopicsResponse burst = first.send(createTopics((short) 5, EmbeddedKaas.uniqueTopicName("v5-a"), 20));
            CreateTopicsResponse inDebt = second.send(createTopics((short) 5, EmbeddedKaas.uniqueTopicName("v5-b"), 4));

            assertThat(burst.data().topics()).allMatch(t -> t.errorCode() == Errors.NONE.code());
            assertThat(burst.throttleTimeMs()).as("a debt of 9 partitions at 1/s").isPositive();
            assertThat(inDebt.data().topics()).as("permissive: admitted in debt")
                    .allMatch(t -> t.errorCode() == Errors.NONE.code());
            assertThat(inDebt.throttleTimeMs()).isPositive();

            // the same client id at a strict version: refused while in debt
            CreateTopicsResponse strict = third.send(createTopics((short) 7, EmbeddedKaas.uniqueTopicName("v7"), 1));
            assertThat(strict.data().topics()).singleElement().satisfies(t -> {
                assertThat(t.errorCode()).isEqualTo(Errors.THROTTLING_QUOTA_EXCEEDED.code());
                assertThat(t.errorMessage()).isEqualTo("The throttling quota has been exceeded.");
            });
            assertThat(strict.throttleTimeMs()).isPositive();
        }
    }

    /** The topics, asked by a client without a quota (a throttled client's connection waits out its throttle). */
    private static Set<String> topicNames() throws Exception {
        try (Admin observer = Admin.create(KAAS.kaas().adminConfig(Map.of()))) {
            return observer.listTopics().names().get(30, TimeUnit.SECONDS);
        }
    }

    private static CreateTopicsRequest createTopics(short version, String topic, int partitions) {
        CreateTopicsRequestData data = new CreateTopicsRequestData().setTimeoutMs(30_000);
        data.topics().add(new CreateTopicsRequestData.CreatableTopic().setName(topic).setNumPartitions(partitions)
                .setReplicationFactor((short) 1));
        return new CreateTopicsRequest.Builder(data).build(version);
    }

    /** An admin client whose client id has a quota of one partition mutation per second. */
    private static Admin adminWithQuota(String clientId) throws Exception {
        setQuota(clientId, ONE_PER_SECOND);
        return Admin.create(KAAS.kaas().adminConfig(Map.of(AdminClientConfig.CLIENT_ID_CONFIG, clientId)));
    }

    private static void setQuota(String clientId, double rate) throws Exception {
        try (Admin admin = Admin.create(KAAS.kaas().adminConfig(Map.of()))) {
            admin.alterClientQuotas(List.of(new ClientQuotaAlteration(new ClientQuotaEntity(Map.of(
                    ClientQuotaEntity.CLIENT_ID, clientId)), List.of(new ClientQuotaAlteration.Op(
                    "controller_mutation_rate", rate))))).all().get(30, TimeUnit.SECONDS);
        }
    }
}
