package io.kaas.bootstrap.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kaas.adapter.k8s.crd.KafkaTopic;
import io.kaas.adapter.k8s.crd.KafkaTopicSpec;
import io.kaas.bootstrap.testing.EmbeddedKaas;
import io.kaas.bootstrap.testing.LocalCluster;
import io.kaas.bootstrap.testing.WordCountApp;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.CreateTopicsOptions;
import org.apache.kafka.clients.admin.NewPartitions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three broker processes of the real jar on the local cluster ({@code dev/cluster.sh}), driven by
 * unmodified kafka-clients: the controller spreads partitions, every broker serves what it leads,
 * and a broker killed with SIGKILL during acks=all idempotent production costs seconds of
 * unavailability for its partitions and not one acknowledged record.
 */
class LocalClusterIT {
    private static final Duration CLUSTER_DEADLINE = Duration.ofSeconds(60);
    private static final int PARTITIONS = 6;

    @TempDir
    Path dir;

    @Test
    void theControllerSpreadsPartitionsAndAKilledLeaderLosesNoAcknowledgedRecord() throws Exception {
        try (LocalCluster cluster = LocalCluster.start(3, dir.resolve("cluster"));
             Admin admin = Admin.create(Map.of("bootstrap.servers", cluster.bootstrapServers()))) {
            String topic = "spread";
            createSpread(admin, topic);
            assertThat(admin.describeCluster().nodes().get(10, TimeUnit.SECONDS)).hasSize(3);
            try (KubernetesClient kubernetes = cluster.kubernetesClient()) {
                await("each broker set its pod's readiness gate once its partitions were open").atMost(CLUSTER_DEADLINE)
                        .untilAsserted(() -> assertThat(IntStream.range(0, 3).mapToObj(id -> partitionsReady(kubernetes, id)))
                                .containsOnly("True"));
            }

            int victim = describe(admin, topic).partitions().get(0).leader().id();
            Set<Integer> victimsPartitions = describe(admin, topic).partitions().stream()
                    .filter(p -> p.leader().id() == victim).map(TopicPartitionInfo::partition).collect(Collectors.toSet());
            Map<Integer, Integer> acknowledged = new ConcurrentHashMap<>(); // sequence -> partition
            AtomicLong firstAckOnMovedPartitionNanos = new AtomicLong();
            long killedAtNanos;
            int total = 3_000;
            try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(EmbeddedKaas.producerConfig(
                    cluster.bootstrapServers(), Map.of(ProducerConfig.ACKS_CONFIG, "all",
                            ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true, ProducerConfig.LINGER_MS_CONFIG, 2,
                            ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 120_000)))) {
                for (int seq = 0; seq < total / 2; seq++) {
                    send(producer, topic, seq, acknowledged, null, 0);
                }
                producer.flush();
                killedAtNanos = System.nanoTime();
                cluster.kill(victim);
                for (int seq = total / 2; seq < total; seq++) {
                    boolean moved = victimsPartitions.contains(seq % PARTITIONS);
                    send(producer, topic, seq, acknowledged, moved ? firstAckOnMovedPartitionNanos : null, killedAtNanos);
                }
                producer.flush();
            }
            assertThat(acknowledged).as("every record acknowledged").hasSize(total);
            long unavailableMs = TimeUnit.NANOSECONDS.toMillis(firstAckOnMovedPartitionNanos.get() - killedAtNanos);
            System.out.printf("LocalClusterIT: kill -9 of broker %d -> first acknowledgement on its partitions after %d ms%n",
                    victim, unavailableMs);

            // The admin may still pick the dead broker for its next request: ask until a survivor answers.
            await("the survivors lead everything").atMost(CLUSTER_DEADLINE).ignoreExceptions().untilAsserted(() -> {
                Map<Integer, Long> after = leadersById(admin, topic);
                assertThat(after.keySet()).doesNotContain(victim);
                assertThat(after.values().stream().mapToLong(Long::longValue).sum()).isEqualTo(PARTITIONS);
            });
            assertThat(readAll(cluster.bootstrapServers(), topic, total)).as("each record once, in order per partition")
                    .isEqualTo(expectedByPartition(total));
        }
    }

    @Test
    void aBrokerWhoseEventLoopsAreWedgedIsEvictedAndItsPartitionsMove() throws Exception {
        try (LocalCluster cluster = LocalCluster.start(3, dir.resolve("cluster"))) {
            String topic = "wedged";
            int victim;
            try (Admin admin = Admin.create(Map.of("bootstrap.servers", cluster.bootstrapServers()))) {
                createSpread(admin, topic);
                victim = (admin.describeCluster().controller().get(10, TimeUnit.SECONDS).id() + 1) % 3;
            }
            long wedgedAt = System.nanoTime();
            // Its heartbeats still flow (their own threads), saying it is unhealthy: the controller drops it.
            cluster.wedge(victim, Duration.ofSeconds(20));
            // Read from assignment.json, not through a client: a client's request to the wedged broker hangs with it.
            await("the wedged broker's partitions move to the others").atMost(CLUSTER_DEADLINE).ignoreExceptions()
                    .untilAsserted(() -> {
                        List<Integer> leaders = new ArrayList<>();
                        assignment(cluster).get("partitions").forEach(p -> {
                            if (p.get("topic").asText().equals(topic)) {
                                leaders.add(p.get("leader").asInt());
                            }
                        });
                        assertThat(leaders).hasSize(PARTITIONS).doesNotContain(victim);
                    });
            System.out.printf("LocalClusterIT: broker %d wedged -> its partitions led elsewhere after %d ms%n", victim,
                    elapsedMs(wedgedAt));
            produceAndReadBack(cluster.bootstrapServersWithout(victim), topic, 600);
        }
    }

    @Test
    void aPausedControllerIsReplacedAtAHigherEpochAndCannotRollTheClusterBackWhenItResumes() throws Exception {
        try (LocalCluster cluster = LocalCluster.start(3, dir.resolve("cluster"))) {
            String topic = "failover";
            int oldController;
            long oldEpoch;
            int survivorsPartition;
            try (Admin admin = Admin.create(Map.of("bootstrap.servers", cluster.bootstrapServers()))) {
                createSpread(admin, topic);
                oldController = admin.describeCluster().controller().get(10, TimeUnit.SECONDS).id();
                oldEpoch = assignment(cluster).get("controllerEpoch").asLong();
                survivorsPartition = describe(admin, topic).partitions().stream()
                        .filter(p -> p.leader().id() != oldController).findFirst().orElseThrow().partition();
            }

            long pausedAt = System.nanoTime();
            cluster.signal(oldController, "STOP"); // a GC pause, or a partition from the API server: it stops renewing
            // The self-fence: past the heartbeat timeout (3 s) without the controller's ack, a broker refuses writes,
            // since a live controller would count it dead now; once the Lease has gone unrenewed for longer than a
            // holder acts on it (8 s), nobody can be moving partitions, and it serves again until a new one wins.
            Map<Long, String> outcomes = writesBetween(cluster.bootstrapServersWithout(oldController), topic,
                    survivorsPartition, pausedAt, 4_000, 6_500);
            assertThat(outcomes).as("writes to a partition led by a broker the controller no longer acknowledges")
                    .isNotEmpty().allSatisfy((atMs, outcome) -> assertThat(outcome).isEqualTo("NotLeaderOrFollowerException"));
            try (Admin survivors = Admin.create(Map.of("bootstrap.servers", cluster.bootstrapServersWithout(oldController)))) {
                await("another broker takes the Lease and moves the paused one's partitions").atMost(CLUSTER_DEADLINE)
                        .ignoreExceptions().untilAsserted(() -> {
                            assertThat(survivors.describeCluster().controller().get(5, TimeUnit.SECONDS).id())
                                    .isNotEqualTo(oldController);
                            assertThat(leadersById(survivors, topic)).doesNotContainKey(oldController);
                        });
                long newEpoch = assignment(cluster).get("controllerEpoch").asLong();
                assertThat(newEpoch).isGreaterThan(oldEpoch);
                // A survivor takes the new assignment up to a poll (1 s) after the controller wrote it; until then its
                // Metadata still lists the paused broker, and a client that connects there waits out its request timeout.
                for (int id = 0; id < 3; id++) {
                    int survivor = id;
                    if (survivor != oldController) {
                        await("broker " + survivor + " no longer lists the paused broker").atMost(CLUSTER_DEADLINE)
                                .untilAsserted(() -> assertThat(cluster.brokersListedBy(survivor))
                                        .isNotEmpty().doesNotContain(oldController));
                    }
                }
                produceAndReadBack(cluster.bootstrapServersWithout(oldController), topic, 600);

                cluster.signal(oldController, "CONT");
                // Resumed, it believes for a moment that it still controls: nothing it does may take the cluster back.
                long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
                while (System.nanoTime() < until) {
                    assertThat(assignment(cluster).get("controllerEpoch").asLong()).isGreaterThanOrEqualTo(newEpoch);
                    Thread.onSpinWait();
                }
                await("the resumed broker serves again").atMost(CLUSTER_DEADLINE).ignoreExceptions().untilAsserted(() ->
                        assertThat(leadersById(survivors, topic)).containsKey(oldController));
            }
            produceAndReadBack(cluster.bootstrapServers(), topic, 600);
        }
    }

    @Test
    void withTheApiServerGoneClientsAreServedAndTheClusterLearnsAgainWhenItReturns() throws Exception {
        try (LocalCluster cluster = LocalCluster.start(3, dir.resolve("cluster"));
             Admin admin = Admin.create(Map.of("bootstrap.servers", cluster.bootstrapServers()))) {
            String topic = "steady";
            createSpread(admin, topic);

            cluster.apiServer("stop");
            long stoppedAt = System.nanoTime();
            produceAndReadBack(cluster.bootstrapServers(), topic, 600);
            String later = "created-once-the-api-server-is-back";
            // A topic is a KafkaTopic: none can be declared without the API server, and CreateTopics times out as
            // Apache's does while its controller cannot be reached.
            assertThatThrownBy(() -> admin.createTopics(List.of(new NewTopic(later, 3, (short) 1)),
                    new CreateTopicsOptions().timeoutMs(2_000)).all().get(30, TimeUnit.SECONDS))
                    .hasCauseInstanceOf(org.apache.kafka.common.errors.TimeoutException.class);
            // Past the Lease's duration: no controller may place anything now, and the old placement holds.
            await().pollDelay(Duration.ofSeconds(12)).atMost(Duration.ofSeconds(20))
                    .until(() -> System.nanoTime() - stoppedAt > TimeUnit.SECONDS.toNanos(12));
            produceAndReadBack(cluster.bootstrapServers(), topic, 600);

            cluster.apiServer("start");
            await("the returned API server takes the new topic, and a controller places it").atMost(CLUSTER_DEADLINE)
                    .ignoreExceptions().untilAsserted(() -> {
                        createUnlessExists(admin, later, 3);
                        assertThat(describe(admin, later).partitions()).allSatisfy(p -> assertThat(p.leader()).isNotNull());
                    });
            produceAndReadBack(cluster.bootstrapServers(), later, 300);
        }
    }

    @Test
    void transactionsAndConsumerGroupsWorkAcrossBrokers() throws Exception {
        try (LocalCluster cluster = LocalCluster.start(3, dir.resolve("cluster"));
             Admin admin = Admin.create(Map.of("bootstrap.servers", cluster.bootstrapServers()))) {
            String topic = "exactly-once";
            createSpread(admin, topic);

            try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(EmbeddedKaas.producerConfig(
                    cluster.bootstrapServers(), Map.of(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "across-brokers")))) {
                producer.initTransactions();
                // Back to back, so each transaction's markers race the next one's records on the peers' partitions.
                for (String outcome : List.of("commit", "abort", "commit", "abort", "abort", "commit", "abort", "commit")) {
                    producer.beginTransaction();
                    for (int i = 0; i < 60; i++) {
                        producer.send(new ProducerRecord<>(topic, i % PARTITIONS, outcome.getBytes(), ByteBuffer.allocate(4).putInt(i).array()));
                    }
                    if (outcome.equals("commit")) {
                        producer.commitTransaction();
                    } else {
                        producer.flush(); // on the brokers, so the abort has records to end
                        producer.abortTransaction();
                    }
                }
            }

            Map<String, Object> readCommitted = Map.of("isolation.level", "read_committed", "auto.offset.reset", "earliest",
                    "enable.auto.commit", false);
            List<String> read = new ArrayList<>();
            try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(EmbeddedKaas.consumerConfig(
                    cluster.bootstrapServers(), merged(readCommitted, Map.of("group.id", "readers"))))) {
                consumer.subscribe(List.of(topic));
                await("the committed records, none of the aborted").atMost(CLUSTER_DEADLINE).until(() -> {
                    consumer.poll(Duration.ofMillis(200)).forEach(r -> read.add(new String(r.key())));
                    return read.size() >= 240;
                });
                consumer.poll(Duration.ofMillis(500)).forEach(r -> read.add(new String(r.key())));
                consumer.commitSync();
            }
            assertThat(read).hasSize(240).containsOnly("commit");

            try (KafkaConsumer<byte[], byte[]> again = new KafkaConsumer<>(EmbeddedKaas.consumerConfig(
                    cluster.bootstrapServers(), merged(readCommitted, Map.of("group.id", "readers"))))) {
                again.subscribe(List.of(topic));
                await("the group's committed offsets are found by its coordinator").atMost(CLUSTER_DEADLINE)
                        .until(() -> {
                            again.poll(Duration.ofMillis(200)).forEach(r -> read.add(new String(r.key())));
                            return !again.assignment().isEmpty();
                        });
                again.poll(Duration.ofSeconds(1)).forEach(r -> read.add(new String(r.key())));
            }
            assertThat(read).as("nothing read twice").hasSize(240);

            // A zombie: a second instance with the same transactional id fences the first on every broker.
            String fenced = "fenced";
            createSpread(admin, fenced);
            Map<String, Object> zombieConfig = Map.of(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "zombie");
            try (KafkaProducer<byte[], byte[]> zombie = new KafkaProducer<>(EmbeddedKaas.producerConfig(
                    cluster.bootstrapServers(), zombieConfig))) {
                zombie.initTransactions();
                zombie.beginTransaction();
                for (int p = 0; p < PARTITIONS; p++) {
                    zombie.send(new ProducerRecord<>(fenced, p, "zombie".getBytes(), new byte[0]));
                }
                zombie.flush();
                try (KafkaProducer<byte[], byte[]> successor = new KafkaProducer<>(EmbeddedKaas.producerConfig(
                        cluster.bootstrapServers(), zombieConfig))) {
                    successor.initTransactions(); // aborts the zombie's transaction under a bumped epoch
                    successor.beginTransaction();
                    for (int p = 0; p < PARTITIONS; p++) {
                        successor.send(new ProducerRecord<>(fenced, p, "successor".getBytes(), new byte[0]));
                    }
                    successor.commitTransaction();
                }
                assertThat(catchThrowable(() -> {
                    for (int p = 0; p < PARTITIONS; p++) {
                        zombie.send(new ProducerRecord<>(fenced, p, "zombie".getBytes(), new byte[0])).get(30, TimeUnit.SECONDS);
                    }
                    zombie.commitTransaction();
                })).as("the zombie can neither write nor commit").isNotNull();
            }
            List<String> committed = new ArrayList<>();
            try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(EmbeddedKaas.consumerConfig(
                    cluster.bootstrapServers(), Map.of("isolation.level", "read_committed")))) {
                List<TopicPartition> all = new ArrayList<>();
                for (int p = 0; p < PARTITIONS; p++) {
                    all.add(new TopicPartition(fenced, p));
                }
                consumer.assign(all);
                Map<TopicPartition, Long> stable = consumer.endOffsets(all); // the last stable offsets
                await("everything below the last stable offsets read").atMost(CLUSTER_DEADLINE).until(() -> {
                    consumer.poll(Duration.ofMillis(200)).forEach(r -> committed.add(new String(r.key())));
                    return all.stream().allMatch(tp -> consumer.position(tp) >= stable.get(tp));
                });
            }
            assertThat(committed).as("the successor's records, none of the zombie's").hasSize(PARTITIONS)
                    .containsOnly("successor");
        }
    }

    @Test
    void aRollingRestartUnderSteadyProductionLosesNothingAndRaisesNoClientError() throws Exception {
        try (LocalCluster cluster = LocalCluster.start(3, dir.resolve("cluster"));
             Admin admin = Admin.create(Map.of("bootstrap.servers", cluster.bootstrapServers()))) {
            String topic = "rolling";
            createSpread(admin, topic);
            Map<Integer, Integer> acknowledged = new ConcurrentHashMap<>();
            List<Exception> errors = new CopyOnWriteArrayList<>();
            Semaphore inFlight = new Semaphore(2); // steady, not flat out: paced by the acknowledgements
            AtomicBoolean producing = new AtomicBoolean(true);
            int total;
            long startedAt = System.nanoTime();
            try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(EmbeddedKaas.producerConfig(
                    cluster.bootstrapServers(), Map.of(ProducerConfig.ACKS_CONFIG, "all",
                            ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true, ProducerConfig.LINGER_MS_CONFIG, 5,
                            ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 120_000)))) {
                CompletableFuture<Integer> steady = CompletableFuture.supplyAsync(() -> {
                    int seq = 0;
                    for (; producing.get(); seq++) {
                        inFlight.acquireUninterruptibly();
                        int s = seq;
                        producer.send(new ProducerRecord<>(topic, s % PARTITIONS, null, ByteBuffer.allocate(4).putInt(s).array()),
                                (metadata, error) -> {
                                    inFlight.release();
                                    if (error == null) {
                                        acknowledged.put(s, s % PARTITIONS);
                                    } else {
                                        errors.add(error);
                                    }
                                });
                    }
                    return seq;
                });
                for (int id = 0; id < 3; id++) {
                    int restarted = id;
                    cluster.terminate(restarted, Duration.ofSeconds(60)); // drains: its partitions move while it serves
                    cluster.restart(restarted);
                    await("broker " + restarted + " leads partitions again").atMost(CLUSTER_DEADLINE).ignoreExceptions()
                            .untilAsserted(() -> assertThat(leadersById(admin, topic)).containsKey(restarted));
                }
                producing.set(false);
                total = steady.get(30, TimeUnit.SECONDS);
                producer.flush();
            }
            System.out.printf("LocalClusterIT: rolling restart of 3 brokers in %d ms under %d acks=all records%n",
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startedAt), total);
            assertThat(errors).as("no client error, retriable or not, reached the application").isEmpty();
            assertThat(acknowledged).as("every record acknowledged").hasSize(total);
            assertThat(readAll(cluster.bootstrapServers(), topic, total)).as("each record once, in order per partition")
                    .isEqualTo(expectedByPartition(total));
        }
    }

    @Test
    void streamsExactlyOnceHoldsAcrossBrokersAndThroughABrokersLoss() throws Exception {
        try (LocalCluster cluster = LocalCluster.start(3, dir.resolve("cluster"));
             Admin admin = Admin.create(Map.of("bootstrap.servers", cluster.bootstrapServers()))) {
            String input = "sentences";
            String output = "word-counts";
            admin.createTopics(List.of(new NewTopic(input, 3, (short) 1), new NewTopic(output, 3, (short) 1)))
                    .all().get(30, TimeUnit.SECONDS);
            await("both topics placed").atMost(CLUSTER_DEADLINE).ignoreExceptions().untilAsserted(() -> {
                assertThat(leadersById(admin, input).values().stream().mapToLong(Long::longValue).sum()).isEqualTo(3);
                assertThat(leadersById(admin, output).values().stream().mapToLong(Long::longValue).sum()).isEqualTo(3);
            });
            int controller = admin.describeCluster().controller().get(10, TimeUnit.SECONDS).id();
            int victim = (controller + 1) % 3;
            Map<String, Integer> expected = new TreeMap<>();
            KafkaStreams app = WordCountApp.start(cluster.bootstrapServers(), "word-count", input, output,
                    dir.resolve("streams-state"));
            try (KafkaProducer<byte[], byte[]> sentences = new KafkaProducer<>(EmbeddedKaas.producerConfig(
                    cluster.bootstrapServers(), Map.of(ProducerConfig.ACKS_CONFIG, "all",
                            ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true, ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 120_000)))) {
                WordCountApp.send(sentences, input, 0, 60, expected);
                WordCountApp.awaitCounts(cluster.bootstrapServers(), output, 3, expected, CLUSTER_DEADLINE.multipliedBy(2));

                // Its partitions, and whatever group or transaction coordination it held, move to the survivors.
                cluster.kill(victim);
                WordCountApp.send(sentences, input, 60, 120, expected);
                WordCountApp.awaitCounts(cluster.bootstrapServersWithout(victim), output, 3, expected,
                        CLUSTER_DEADLINE.multipliedBy(2));
            } finally {
                app.close(Duration.ofSeconds(30)); // close() without a bound waits for stuck stream threads forever
            }
        }
    }

    @Test
    void adminWritesAreKafkaTopicsTheOperatorMaterializes() throws Exception {
        try (LocalCluster cluster = LocalCluster.start(3, dir.resolve("cluster"));
             Admin admin = Admin.create(Map.of("bootstrap.servers", cluster.bootstrapServers()));
             KubernetesClient kubernetes = cluster.kubernetesClient()) {
            String topic = "declared-over-kafka";
            admin.createTopics(List.of(new NewTopic(topic, 3, (short) 1).configs(Map.of("retention.ms", "86400000"))))
                    .all().get(30, TimeUnit.SECONDS);

            KafkaTopic declared = kafkaTopic(kubernetes, topic);
            assertThat(declared.getSpec().getPartitions()).isEqualTo(3);
            assertThat(declared.getSpec().getConfig().getRetentionMs()).isEqualTo(86_400_000L);
            Uuid topicId = describe(admin, topic).topicId();
            assertThat(declared.getStatus().getTopicId()).as("the id the operator minted is the one clients see")
                    .isEqualTo(new UUID(topicId.getMostSignificantBits(), topicId.getLeastSignificantBits()).toString());
            produceAndReadBack(cluster.bootstrapServers(), topic, 300);

            admin.createPartitions(Map.of(topic, NewPartitions.increaseTo(4))).all().get(30, TimeUnit.SECONDS);
            assertThat(kafkaTopic(kubernetes, topic).getSpec().getPartitions()).isEqualTo(4);
            String streamsInternal = "app-KSTREAM-AGGREGATE-STATE-STORE-0000000001-changelog";
            admin.createTopics(List.of(new NewTopic(streamsInternal, 1, (short) 1))).all().get(30, TimeUnit.SECONDS);
            assertThat(kubernetes.resources(KafkaTopic.class).list().getItems()).as("not a Kubernetes name")
                    .anySatisfy(t -> {
                        assertThat(t.getMetadata().getName()).startsWith("kaas-topic-");
                        assertThat(t.getSpec().getTopicName()).isEqualTo(streamsInternal);
                    });

            admin.deleteTopics(List.of(topic)).all().get(30, TimeUnit.SECONDS);
            assertThat(kafkaTopic(kubernetes, topic)).isNull();
            await("the operator reclaims its directory").atMost(CLUSTER_DEADLINE)
                    .until(() -> !Files.exists(cluster.volume().resolve(topic)));
            await("no broker serves it").atMost(CLUSTER_DEADLINE).untilAsserted(() ->
                    assertThat(admin.listTopics().names().get(10, TimeUnit.SECONDS)).containsExactly(streamsInternal));
        }
    }

    @Test
    void aKafkaTopicCreatedInKubernetesIsATopicClientsUse() throws Exception {
        try (LocalCluster cluster = LocalCluster.start(3, dir.resolve("cluster"));
             Admin admin = Admin.create(Map.of("bootstrap.servers", cluster.bootstrapServers()));
             KubernetesClient kubernetes = cluster.kubernetesClient()) {
            KafkaTopic resource = new KafkaTopic();
            resource.setMetadata(new ObjectMetaBuilder().withName("declared-in-kubernetes").build());
            resource.setSpec(new KafkaTopicSpec());
            resource.getSpec().setPartitions(PARTITIONS);
            kubernetes.resource(resource).create();

            await("every broker leads two of its partitions").atMost(CLUSTER_DEADLINE).ignoreExceptions()
                    .untilAsserted(() -> assertThat(leadersById(admin, "declared-in-kubernetes"))
                            .isEqualTo(Map.of(0, 2L, 1, 2L, 2, 2L)));
            produceAndReadBack(cluster.bootstrapServers(), "declared-in-kubernetes", 600);
        }
    }

    /** Creates a topic of six partitions and waits until the controller has spread them two per broker. */
    private static void createSpread(Admin admin, String topic) throws Exception {
        admin.createTopics(List.of(new NewTopic(topic, PARTITIONS, (short) 1))).all().get(30, TimeUnit.SECONDS);
        await("every broker leads two partitions").atMost(CLUSTER_DEADLINE).ignoreExceptions().untilAsserted(() ->
                assertThat(leadersById(admin, topic)).isEqualTo(Map.of(0, 2L, 1, 2L, 2, 2L)));
    }

    private static Map<String, Object> merged(Map<String, Object> a, Map<String, Object> b) {
        Map<String, Object> all = new java.util.HashMap<>(a);
        all.putAll(b);
        return all;
    }

    /** Produces {@code count} records round the partitions (acks=all, idempotent) and reads exactly them back. */
    static void produceAndReadBack(String bootstrap, String topic, int count) throws Exception {
        String marker = Long.toString(System.nanoTime());
        Map<Integer, Integer> acknowledged = new ConcurrentHashMap<>();
        int partitions;
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrap))) {
            partitions = describe(admin, topic).partitions().size();
        }
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(EmbeddedKaas.producerConfig(bootstrap, Map.of(
                ProducerConfig.ACKS_CONFIG, "all", ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true,
                ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 120_000)))) {
            for (int seq = 0; seq < count; seq++) {
                int s = seq;
                producer.send(new ProducerRecord<>(topic, seq % partitions, marker.getBytes(), ByteBuffer.allocate(4).putInt(seq).array()),
                        (metadata, error) -> {
                            if (error == null) {
                                acknowledged.put(s, s % partitions);
                            }
                        });
            }
            producer.flush();
        }
        assertThat(acknowledged).hasSize(count);
        List<Integer> read = readFromBeginning(bootstrap, topic, partitions, count,
                record -> record.key() != null && marker.equals(new String(record.key())))
                .values().stream().flatMap(List::stream).toList();
        assertThat(read).containsExactlyInAnyOrderElementsOf(acknowledged.keySet());
    }

    private static JsonNode assignment(LocalCluster cluster) throws Exception {
        return new ObjectMapper().readTree(cluster.volume().resolve("__cluster/assignment.json").toFile());
    }

    private static void send(KafkaProducer<byte[], byte[]> producer, String topic, int seq, Map<Integer, Integer> acknowledged,
                             AtomicLong firstAck, long sinceNanos) {
        int partition = seq % PARTITIONS;
        producer.send(new ProducerRecord<>(topic, partition, null, ByteBuffer.allocate(4).putInt(seq).array()),
                (metadata, error) -> {
                    if (error == null) {
                        acknowledged.put(seq, partition);
                        if (firstAck != null) {
                            firstAck.compareAndSet(0, System.nanoTime());
                        }
                    }
                });
    }

    private static Map<Integer, List<Integer>> expectedByPartition(int total) {
        Map<Integer, List<Integer>> expected = new TreeMap<>();
        for (int seq = 0; seq < total; seq++) {
            expected.computeIfAbsent(seq % PARTITIONS, p -> new ArrayList<>()).add(seq);
        }
        return expected;
    }

    /** Every record of {@code topic} from the beginning, as its value's sequence number by partition. */
    private static Map<Integer, List<Integer>> readAll(String bootstrap, String topic, int total) {
        return readFromBeginning(bootstrap, topic, PARTITIONS, total, record -> true);
    }

    /** Reads the records {@code wanted} accepts from the beginning until {@code count} came, values by partition. */
    private static Map<Integer, List<Integer>> readFromBeginning(String bootstrap, String topic, int partitions, int count,
                                                              Predicate<ConsumerRecord<byte[], byte[]>> wanted) {
        Map<Integer, List<Integer>> read = new TreeMap<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(EmbeddedKaas.consumerConfig(bootstrap, Map.of()))) {
            List<TopicPartition> all = new ArrayList<>();
            for (int p = 0; p < partitions; p++) {
                all.add(new TopicPartition(topic, p));
            }
            consumer.assign(all);
            consumer.seekToBeginning(all);
            int[] taken = {0};
            await("records read back").atMost(CLUSTER_DEADLINE).until(() -> {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                    if (wanted.test(record)) {
                        read.computeIfAbsent(record.partition(), p -> new ArrayList<>()).add(ByteBuffer.wrap(record.value()).getInt());
                        taken[0]++;
                    }
                }
                return taken[0] >= count;
            });
        }
        return read;
    }

    /**
     * Sends one record at a time, without retries, to {@code partition} from {@code fromMs} to
     * {@code toMs} after {@code sinceNanos}: each attempt's time and outcome ("ok" or the error's class).
     */
    private static Map<Long, String> writesBetween(String bootstrap, String topic, int partition, long sinceNanos,
                                                   long fromMs, long toMs) throws Exception {
        Map<Long, String> outcomes = new TreeMap<>();
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(EmbeddedKaas.producerConfig(bootstrap, Map.of(
                ProducerConfig.ACKS_CONFIG, "all", ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, false,
                ProducerConfig.RETRIES_CONFIG, 0, ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 1_000,
                ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 1_500, ProducerConfig.LINGER_MS_CONFIG, 0)))) {
            producer.partitionsFor(topic); // metadata first, so the window measures the broker, not the client
            await().pollDelay(Duration.ZERO).atMost(Duration.ofMillis(fromMs + 30_000))
                    .until(() -> elapsedMs(sinceNanos) >= fromMs);
            while (elapsedMs(sinceNanos) < toMs) {
                long at = elapsedMs(sinceNanos);
                String outcome;
                try {
                    producer.send(new ProducerRecord<>(topic, partition, null, "fence-probe".getBytes())).get(3, TimeUnit.SECONDS);
                    outcome = "ok";
                } catch (ExecutionException e) {
                    outcome = e.getCause().getClass().getSimpleName();
                }
                if (elapsedMs(sinceNanos) < toMs) {
                    outcomes.put(at, outcome);
                }
            }
        }
        return outcomes;
    }

    private static long elapsedMs(long sinceNanos) {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - sinceNanos);
    }

    private static TopicDescription describe(Admin admin, String topic) throws Exception {
        return admin.describeTopics(List.of(topic)).allTopicNames().get(10, TimeUnit.SECONDS).get(topic);
    }

    /** Creates a topic, or finds it created by an earlier attempt. */
    private static void createUnlessExists(Admin admin, String topic, int partitions) throws Exception {
        try {
            admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1))).all().get(30, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof TopicExistsException)) {
                throw e;
            }
        }
    }

    private static KafkaTopic kafkaTopic(KubernetesClient kubernetes, String name) {
        return kubernetes.resources(KafkaTopic.class).withName(name).get();
    }

    /** The status of the kaas.rs/PartitionsReady condition on broker {@code id}'s pod, "none" without one. */
    private static String partitionsReady(KubernetesClient kubernetes, int id) {
        Pod pod = kubernetes.pods().withName("kaas-" + id).get();
        return pod == null || pod.getStatus() == null ? "none" : pod.getStatus().getConditions().stream()
                .filter(c -> c.getType().equals("kaas.rs/PartitionsReady")).map(PodCondition::getStatus)
                .findFirst().orElse("none");
    }

    private static Map<Integer, Long> leadersById(Admin admin, String topic) throws Exception {
        return describe(admin, topic).partitions().stream().filter(p -> p.leader() != null)
                .collect(Collectors.groupingBy(p -> p.leader().id(), Collectors.counting()));
    }
}
