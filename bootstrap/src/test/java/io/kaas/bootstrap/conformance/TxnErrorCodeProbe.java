package io.kaas.bootstrap.conformance;

import io.kaas.bootstrap.testing.RawKafkaConnection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionFactory;
import org.awaitility.core.ConditionTimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.message.AddOffsetsToTxnRequestData;
import org.apache.kafka.common.message.AddPartitionsToTxnRequestData.AddPartitionsToTxnTopic;
import org.apache.kafka.common.message.AddPartitionsToTxnRequestData.AddPartitionsToTxnTopicCollection;
import org.apache.kafka.common.message.AddPartitionsToTxnRequestData.AddPartitionsToTxnTransaction;
import org.apache.kafka.common.message.AddPartitionsToTxnRequestData.AddPartitionsToTxnTransactionCollection;
import org.apache.kafka.common.message.AddPartitionsToTxnResponseData.AddPartitionsToTxnResult;
import org.apache.kafka.common.message.DescribeProducersRequestData;
import org.apache.kafka.common.message.DescribeTransactionsRequestData;
import org.apache.kafka.common.message.EndTxnRequestData;
import org.apache.kafka.common.message.FindCoordinatorRequestData;
import org.apache.kafka.common.message.InitProducerIdRequestData;
import org.apache.kafka.common.message.ProduceRequestData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.CompressionType;
import org.apache.kafka.common.record.MemoryRecords;
import org.apache.kafka.common.record.SimpleRecord;
import org.apache.kafka.common.requests.AddOffsetsToTxnRequest;
import org.apache.kafka.common.requests.AddOffsetsToTxnResponse;
import org.apache.kafka.common.requests.AddPartitionsToTxnRequest;
import org.apache.kafka.common.requests.AddPartitionsToTxnResponse;
import org.apache.kafka.common.requests.DescribeProducersRequest;
import org.apache.kafka.common.requests.DescribeProducersResponse;
import org.apache.kafka.common.requests.DescribeTransactionsRequest;
import org.apache.kafka.common.requests.DescribeTransactionsResponse;
import org.apache.kafka.common.requests.EndTxnRequest;
import org.apache.kafka.common.requests.EndTxnResponse;
import org.apache.kafka.common.requests.FindCoordinatorRequest;
import org.apache.kafka.common.requests.FindCoordinatorResponse;
import org.apache.kafka.common.requests.InitProducerIdRequest;
import org.apache.kafka.common.requests.InitProducerIdResponse;
import org.apache.kafka.common.requests.ProduceRequest;
import org.apache.kafka.common.requests.ProduceResponse;
import org.apache.kafka.common.requests.TxnOffsetCommitRequest;
import org.apache.kafka.common.requests.TxnOffsetCommitResponse;

/**
 * Asks a broker, through raw requests at every version, what error code each transactional and
 * idempotent API answers for a fenced producer, a stale or future epoch, a transaction aborted on
 * timeout, an unknown producer id or transactional id, and an expired one; the answers are rows
 * {@code api version situation error}.
 * Run against Apache Kafka 3.7.2 it records the table kaas must match ({@link #main}); the IT runs it
 * against kaas. The broker must expire transactional ids and producer ids after a few seconds
 * ({@value #EXPIRY_HINT}), look for timed-out transactions every 500 ms, and be a single broker
 * (every coordinator is the bootstrap broker).
 */
public final class TxnErrorCodeProbe {
    static final String EXPIRY_HINT =
            "transactional.id.expiration.ms=5000 producer.id.expiration.ms=5000, checked every 500 ms";
    private static final String TOPIC = "txn-error-codes";
    private static final TopicPartition PARTITION = new TopicPartition(TOPIC, 0);
    /** One group for every call: its coordinator is awaited once, so no answer is a group still loading. */
    private static final String GROUP = "txn-error-codes";
    /** Far above any producer id either broker hands out in one run. */
    private static final long MADE_UP_PRODUCER_ID = 7_000_000_000L;
    private static final Duration PATIENCE = Duration.ofSeconds(60);
    private static final int SHORT_TIMEOUT_MS = 1_000;

    private final String host;
    private final int port;
    private final String runId = UUID.randomUUID().toString().substring(0, 8);
    private final AtomicInteger ids = new AtomicInteger();
    private final AtomicInteger madeUpIds = new AtomicInteger();
    private final List<Row> rows = new ArrayList<>();
    /** Calls whose situation is an expired id: run after every one of them has expired. */
    private final List<Runnable> afterExpiry = new ArrayList<>();
    /**
     * Calls whose situation is a transaction the broker aborted on timeout: all set up together once the
     * rest is asked, and asked once all are aborted (each id expires a few seconds after its abort).
     */
    private final List<TimeoutCase> timeoutCases = new ArrayList<>();
    private final List<String> timingOutTransactionalIds = new ArrayList<>();
    private final List<String> awaitedTransactionalIds = new ArrayList<>();
    private final List<Long> awaitedProducerIds = new ArrayList<>();
    private RawKafkaConnection connection;

    public record Row(String api, short version, String situation, Errors error) {
        @Override
        public String toString() {
            return api + "\t" + version + "\t" + situation + "\t" + error.name();
        }
    }

    /** What is done with a producer before its transaction times out, and what it is asked after. */
    private record TimeoutCase(Consumer<Caller> before, Consumer<Caller> after) {
    }

    /** Who calls: a transactional id with a producer id and epoch. */
    private record Caller(String transactionalId, long producerId, short epoch) {
        Caller withEpoch(int newEpoch) {
            return new Caller(transactionalId, producerId, (short) newEpoch);
        }
    }

    /** The situations every transactional API is asked about, each set up afresh per call. */
    private enum TxnSituation {
        FENCED("fenced"), FENCED_MID_TRANSACTION("fenced-mid-transaction"), FUTURE_EPOCH("future-epoch"),
        UNKNOWN_PRODUCER_ID("unknown-producer-id"), UNKNOWN_TRANSACTIONAL_ID("unknown-transactional-id"),
        EXPIRED("expired-transactional-id"), TIMED_OUT("aborted-on-timeout");

        final String label;

        TxnSituation(String label) {
            this.label = label;
        }
    }

    public TxnErrorCodeProbe(String host, int port) {
        this.host = host;
        this.port = port;
    }

    /** Prints the table of the broker at {@code args[0]} (host:port): how Apache's is recorded. */
    public static void main(String[] args) {
        String[] hostPort = args[0].split(":");
        for (Row row : new TxnErrorCodeProbe(hostPort[0], Integer.parseInt(hostPort[1])).run()) {
            System.out.println(row);
        }
    }

    public List<Row> run() {
        createTopic();
        try (RawKafkaConnection conn = RawKafkaConnection.connect(host, port)) {
            connection = conn;
            awaitCoordinator(FindCoordinatorRequest.CoordinatorType.TRANSACTION, "probe");
            awaitCoordinator(FindCoordinatorRequest.CoordinatorType.GROUP, GROUP);
            for (short v = 0; v <= 3; v++) {
                short version = v;
                askTxnApi("AddPartitionsToTxn", version, caller -> addPartitions(caller, version));
                askTxnApi("AddOffsetsToTxn", version, caller -> addOffsets(caller, version));
                askTxnApi("EndTxn", version, caller -> endTxn(caller, version));
                askTxnApi("TxnOffsetCommit", version, caller -> txnOffsetCommit(caller, version));
            }
            askTxnApi("AddPartitionsToTxn", (short) 4, this::verifyOnly);
            for (short v = 3; v <= 4; v++) {
                askInitProducerId(v);
            }
            for (short v = 3; v <= 9; v++) {
                askProduce(v);
            }
            askTimeoutCases();
            awaitExpiry();
            afterExpiry.forEach(Runnable::run);
        }
        rows.sort(Comparator.comparing(Row::toString));
        return rows;
    }

    private void askTxnApi(String api, short version, Function<Caller, Errors> call) {
        for (TxnSituation situation : TxnSituation.values()) {
            Caller caller = switch (situation) {
                case FENCED -> {
                    Caller first = init(newTransactionalId());
                    init(first.transactionalId());
                    yield first;
                }
                case FENCED_MID_TRANSACTION -> {
                    Caller first = init(newTransactionalId());
                    expectNone(addPartitions(first, (short) 3), "add partition");
                    init(first.transactionalId()); // aborts the transaction under a newer epoch
                    yield first;
                }
                case FUTURE_EPOCH -> {
                    Caller current = init(newTransactionalId());
                    yield current.withEpoch(current.epoch() + 1);
                }
                case UNKNOWN_PRODUCER_ID -> {
                    Caller current = init(newTransactionalId());
                    yield new Caller(current.transactionalId(), madeUpProducerId(), current.epoch());
                }
                case UNKNOWN_TRANSACTIONAL_ID -> new Caller(newTransactionalId(), madeUpProducerId(), (short) 0);
                case EXPIRED -> {
                    Caller current = init(newTransactionalId());
                    awaitedTransactionalIds.add(current.transactionalId());
                    yield current;
                }
                case TIMED_OUT -> null; // set up later, with the other timeouts
            };
            if (situation == TxnSituation.TIMED_OUT) {
                timeoutCases.add(new TimeoutCase(timedOut -> { },
                        timedOut -> rows.add(new Row(api, version, situation.label, call.apply(timedOut)))));
                continue;
            }
            Runnable ask = () -> rows.add(new Row(api, version, situation.label, call.apply(caller)));
            if (situation == TxnSituation.EXPIRED) {
                afterExpiry.add(ask);
            } else {
                ask.run();
            }
        }
    }

    /** InitProducerId v3+ names the caller's producer id and epoch (KIP-360); older versions cannot be stale. */
    private void askInitProducerId(short version) {
        Caller stale = init(newTransactionalId());
        init(stale.transactionalId());
        init(stale.transactionalId());
        rows.add(new Row("InitProducerId", version, "fenced-two-epochs-behind", initAs(stale, version)));
        Caller fenced = init(newTransactionalId());
        init(fenced.transactionalId());
        rows.add(new Row("InitProducerId", version, "fenced-one-epoch-behind", initAs(fenced, version)));
        Caller bumping = init(newTransactionalId());
        expectNone(initAs(bumping, version), "the producer's own epoch bump");
        rows.add(new Row("InitProducerId", version, "retry-of-own-bump", initAs(bumping, version)));
        Caller current = init(newTransactionalId());
        rows.add(new Row("InitProducerId", version, "future-epoch",
                initAs(current.withEpoch(current.epoch() + 1), version)));
        Caller other = init(newTransactionalId());
        rows.add(new Row("InitProducerId", version, "unknown-producer-id",
                initAs(new Caller(other.transactionalId(), madeUpProducerId(), other.epoch()), version)));
        rows.add(new Row("InitProducerId", version, "unknown-transactional-id",
                initAs(new Caller(newTransactionalId(), madeUpProducerId(), (short) 0), version)));
        Caller expiring = init(newTransactionalId());
        awaitedTransactionalIds.add(expiring.transactionalId());
        afterExpiry.add(() -> rows.add(new Row("InitProducerId", version, "expired-transactional-id",
                initAs(expiring, version))));
    }

    private void askProduce(short version) {
        Caller midTxn = init(newTransactionalId());
        expectNone(addPartitions(midTxn, (short) 3), "add partition");
        expectNone(produce(midTxn, 0, version), "first transactional batch");
        init(midTxn.transactionalId());
        rows.add(new Row("Produce", version, "txn-fenced-mid-transaction", produce(midTxn, 1, version)));

        Caller fenced = init(newTransactionalId());
        init(fenced.transactionalId());
        rows.add(new Row("Produce", version, "txn-fenced-before-adding", produce(fenced, 0, version)));

        Caller current = init(newTransactionalId());
        rows.add(new Row("Produce", version, "txn-unknown-producer-id",
                produce(new Caller(current.transactionalId(), madeUpProducerId(), current.epoch()), 0, version)));
        rows.add(new Row("Produce", version, "txn-future-epoch",
                produce(current.withEpoch(current.epoch() + 1), 0, version)));

        timeoutCases.add(new TimeoutCase(
                timedOut -> expectNone(produce(timedOut, 0, version), "transactional batch"),
                timedOut -> rows.add(new Row("Produce", version, "txn-aborted-on-timeout",
                        produce(timedOut, 1, version)))));

        Caller ended = init(newTransactionalId());
        expectNone(addPartitions(ended, (short) 3), "add partition");
        expectNone(produce(ended, 0, version), "transactional batch");
        expectNone(endTxn(ended, (short) 3), "commit");
        awaitedTransactionalIds.add(ended.transactionalId());
        afterExpiry.add(() -> rows.add(new Row("Produce", version, "txn-expired-transactional-id",
                produce(ended, 1, version))));

        Caller bumped = idempotent().withEpoch(1);
        expectNone(produce(bumped, 0, version), "batch of a bumped epoch");
        rows.add(new Row("Produce", version, "idempotent-stale-epoch", produce(bumped.withEpoch(0), 1, version)));
        rows.add(new Row("Produce", version, "idempotent-unknown-producer-id",
                produce(new Caller(null, madeUpProducerId(), (short) 0), 5, version)));
        Caller idle = idempotent();
        expectNone(produce(idle, 0, version), "idempotent batch");
        awaitedProducerIds.add(idle.producerId());
        afterExpiry.add(() -> rows.add(new Row("Produce", version, "idempotent-expired-producer-id",
                produce(idle, 1, version))));
    }

    private Errors addPartitions(Caller caller, short version) {
        AddPartitionsToTxnResponse response = connection.send(AddPartitionsToTxnRequest.Builder.forClient(
                caller.transactionalId(), caller.producerId(), caller.epoch(), List.of(PARTITION)).build(version));
        return response.errors().get(AddPartitionsToTxnResponse.V3_AND_BELOW_TXN_ID).get(PARTITION);
    }

    /** v4, the brokers' form with verify_only (KIP-890): the top-level error, else the partition's. */
    private Errors verifyOnly(Caller caller) {
        AddPartitionsToTxnTransactionCollection transactions = new AddPartitionsToTxnTransactionCollection();
        AddPartitionsToTxnTopicCollection topics = new AddPartitionsToTxnTopicCollection();
        topics.add(new AddPartitionsToTxnTopic().setName(TOPIC).setPartitions(List.of(PARTITION.partition())));
        transactions.add(new AddPartitionsToTxnTransaction().setTransactionalId(caller.transactionalId())
                .setProducerId(caller.producerId()).setProducerEpoch(caller.epoch()).setVerifyOnly(true)
                .setTopics(topics));
        AddPartitionsToTxnResponse response = connection.send(
                AddPartitionsToTxnRequest.Builder.forBroker(transactions).build((short) 4));
        Errors top = Errors.forCode(response.data().errorCode());
        if (top != Errors.NONE) {
            return top;
        }
        AddPartitionsToTxnResult result = response.data().resultsByTransaction().find(caller.transactionalId());
        return AddPartitionsToTxnResponse.errorsForTransaction(result.topicResults()).get(PARTITION);
    }

    private Errors addOffsets(Caller caller, short version) {
        AddOffsetsToTxnResponse response = connection.send(new AddOffsetsToTxnRequest.Builder(
                new AddOffsetsToTxnRequestData().setTransactionalId(caller.transactionalId())
                        .setProducerId(caller.producerId()).setProducerEpoch(caller.epoch())
                        .setGroupId(GROUP)).build(version));
        return Errors.forCode(response.data().errorCode());
    }

    private Errors endTxn(Caller caller, short version) {
        EndTxnResponse response = connection.send(new EndTxnRequest.Builder(new EndTxnRequestData()
                .setTransactionalId(caller.transactionalId()).setProducerId(caller.producerId())
                .setProducerEpoch(caller.epoch()).setCommitted(true)).build(version));
        return Errors.forCode(response.data().errorCode());
    }

    private Errors txnOffsetCommit(Caller caller, short version) {
        TxnOffsetCommitResponse response = connection.send(new TxnOffsetCommitRequest.Builder(
                caller.transactionalId(), GROUP, caller.producerId(), caller.epoch(),
                Map.of(PARTITION, new TxnOffsetCommitRequest.CommittedOffset(0, "", Optional.empty())))
                .build(version));
        return response.errors().get(PARTITION);
    }

    private Errors produce(Caller caller, int sequence, short version) {
        SimpleRecord record = new SimpleRecord(System.currentTimeMillis(), null, "probe".getBytes());
        MemoryRecords records = caller.transactionalId() == null
                ? MemoryRecords.withIdempotentRecords(CompressionType.NONE, caller.producerId(), caller.epoch(),
                        sequence, record)
                : MemoryRecords.withTransactionalRecords(CompressionType.NONE, caller.producerId(), caller.epoch(),
                        sequence, record);
        ProduceRequestData data = new ProduceRequestData().setAcks((short) -1).setTimeoutMs(30_000)
                .setTransactionalId(caller.transactionalId());
        data.topicData().add(new ProduceRequestData.TopicProduceData().setName(TOPIC).setPartitionData(List.of(
                new ProduceRequestData.PartitionProduceData().setIndex(0).setRecords(records))));
        ProduceResponse response = connection.send(ProduceRequest.forCurrentMagic(data).build(version));
        return Errors.forCode(response.data().responses().find(TOPIC).partitionResponses().get(0).errorCode());
    }

    private void askTimeoutCases() {
        List<Caller> callers = new ArrayList<>();
        for (TimeoutCase timeoutCase : timeoutCases) {
            Caller caller = timingOut();
            timeoutCase.before().accept(caller);
            callers.add(caller);
        }
        awaitTimeoutAborts();
        for (int i = 0; i < callers.size(); i++) {
            timeoutCases.get(i).after().accept(callers.get(i));
        }
    }

    /** A producer with a transaction in progress that the broker aborts after {@value #SHORT_TIMEOUT_MS} ms. */
    private Caller timingOut() {
        Caller caller = init(newTransactionalId(), SHORT_TIMEOUT_MS);
        expectNone(addPartitions(caller, (short) 3), "add partition");
        timingOutTransactionalIds.add(caller.transactionalId());
        return caller;
    }

    private Caller init(String transactionalId) {
        return init(transactionalId, 60_000);
    }

    /** A fresh InitProducerId (v4, no producer id named), retried while the coordinator is busy. */
    private Caller init(String transactionalId, int transactionTimeoutMs) {
        InitProducerIdResponse response = retryWhileRetriable(() -> connection.send(new InitProducerIdRequest.Builder(
                new InitProducerIdRequestData().setTransactionalId(transactionalId)
                        .setTransactionTimeoutMs(transactionTimeoutMs)
                        .setProducerId(-1).setProducerEpoch((short) -1)).build((short) 4)),
                r -> Errors.forCode(r.data().errorCode()));
        expectNone(Errors.forCode(response.data().errorCode()), "InitProducerId of " + transactionalId);
        return new Caller(transactionalId, response.data().producerId(), response.data().producerEpoch());
    }

    /** Apache creates its internal topic of coordinators on the first FindCoordinator: ask until it answers. */
    private void awaitCoordinator(FindCoordinatorRequest.CoordinatorType type, String key) {
        FindCoordinatorResponse response = retryWhileRetriable(() -> connection.send(new FindCoordinatorRequest.Builder(
                new FindCoordinatorRequestData().setKeyType(type.id()).setCoordinatorKeys(List.of(key)))
                .build((short) 4)), r -> Errors.forCode(r.data().coordinators().get(0).errorCode()));
        expectNone(Errors.forCode(response.data().coordinators().get(0).errorCode()), "FindCoordinator " + type);
    }

    private Caller idempotent() {
        return init(null);
    }

    /** InitProducerId naming the caller's producer id and epoch, answered once the coordinator is not busy. */
    private Errors initAs(Caller caller, short version) {
        InitProducerIdResponse response = retryWhileRetriable(() -> connection.send(new InitProducerIdRequest.Builder(
                new InitProducerIdRequestData().setTransactionalId(caller.transactionalId())
                        .setTransactionTimeoutMs(60_000).setProducerId(caller.producerId())
                        .setProducerEpoch(caller.epoch())).build(version)),
                r -> Errors.forCode(r.data().errorCode()));
        return Errors.forCode(response.data().errorCode());
    }

    /** The first answer without a retriable error, or the last one when none comes within the patience. */
    private static <R> R retryWhileRetriable(Supplier<R> call, Function<R, Errors> error) {
        AtomicReference<R> last = new AtomicReference<>();
        try {
            return patiently().until(() -> {
                last.set(call.get());
                return last.get();
            }, r -> !(error.apply(r).exception() instanceof RetriableException));
        } catch (ConditionTimeoutException e) {
            return last.get();
        }
    }

    private static ConditionFactory patiently() {
        return Awaitility.await().atMost(PATIENCE).pollInSameThread().pollDelay(Duration.ZERO)
                .pollInterval(Duration.ofMillis(100));
    }

    /** Waits until the broker has aborted every transaction set up to time out (and not yet expired their ids). */
    private void awaitTimeoutAborts() {
        patiently().alias("every timed-out transaction aborted; does the broker look for them every 500 ms?")
                .until(() -> {
                    DescribeTransactionsResponse response = connection.send(new DescribeTransactionsRequest.Builder(
                            new DescribeTransactionsRequestData().setTransactionalIds(timingOutTransactionalIds))
                            .build((short) 0));
                    return response.data().transactionStates().stream()
                            .allMatch(s -> s.transactionState().equals("CompleteAbort"));
                });
    }

    /** Waits until the broker has forgotten every transactional id and producer id that must expire. */
    private void awaitExpiry() {
        patiently().alias("every id expired; does the broker run with " + EXPIRY_HINT + "?").until(this::allExpired);
    }

    private boolean allExpired() {
        DescribeTransactionsResponse transactions = connection.send(new DescribeTransactionsRequest.Builder(
                new DescribeTransactionsRequestData().setTransactionalIds(awaitedTransactionalIds)).build((short) 0));
        boolean idsGone = transactions.data().transactionStates().stream()
                .allMatch(s -> s.errorCode() == Errors.TRANSACTIONAL_ID_NOT_FOUND.code());
        DescribeProducersResponse producers = connection.send(new DescribeProducersRequest.Builder(
                new DescribeProducersRequestData().setTopics(List.of(new DescribeProducersRequestData.TopicRequest()
                        .setName(TOPIC).setPartitionIndexes(List.of(0))))).build((short) 0));
        boolean producersGone = producers.data().topics().get(0).partitions().get(0).activeProducers().stream()
                .noneMatch(p -> awaitedProducerIds.contains(p.producerId()));
        return idsGone && producersGone;
    }

    private void createTopic() {
        Properties config = new Properties();
        config.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, host + ":" + port);
        try (Admin admin = Admin.create(config)) {
            if (!admin.listTopics().names().get().contains(TOPIC)) {
                admin.createTopics(List.of(new NewTopic(TOPIC, 1, (short) 1))).all().get();
            }
        } catch (Exception e) {
            throw new IllegalStateException("cannot create " + TOPIC, e);
        }
    }

    private String newTransactionalId() {
        return "txn-codes-" + runId + "-" + ids.incrementAndGet();
    }

    private long madeUpProducerId() {
        return MADE_UP_PRODUCER_ID + madeUpIds.incrementAndGet();
    }

    private static void expectNone(Errors error, String what) {
        if (error != Errors.NONE) {
            throw new IllegalStateException(what + " answered " + error + ": the probe's setup failed");
        }
    }
}
