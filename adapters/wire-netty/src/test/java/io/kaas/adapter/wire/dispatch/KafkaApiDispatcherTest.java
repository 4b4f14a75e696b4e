package io.kaas.adapter.wire.dispatch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.kaas.adapter.wire.support.Frames;
import io.kaas.adapter.wire.support.NettyLeakDetection;
import io.kaas.adapter.wire.support.Responses;
import io.kaas.adapter.wire.support.WireChannel;
import io.kaas.domain.error.KafkaError;
import io.kaas.domain.error.KafkaException;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.kafka.common.errors.InvalidRequestException;
import org.apache.kafka.common.message.ApiVersionsRequestData;
import org.apache.kafka.common.message.ApiVersionsResponseData;
import org.apache.kafka.common.message.InitProducerIdRequestData;
import org.apache.kafka.common.message.InitProducerIdResponseData;
import org.apache.kafka.common.message.MetadataRequestData;
import org.apache.kafka.common.message.MetadataResponseData;
import org.apache.kafka.common.message.ProduceRequestData;
import org.apache.kafka.common.message.ProduceResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.CompressionType;
import org.apache.kafka.common.record.MemoryRecords;
import org.apache.kafka.common.record.SimpleRecord;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.AbstractResponse;
import org.apache.kafka.common.requests.ApiVersionsRequest;
import org.apache.kafka.common.requests.ApiVersionsResponse;
import org.apache.kafka.common.requests.FetchRequest;
import org.apache.kafka.common.requests.InitProducerIdRequest;
import org.apache.kafka.common.requests.InitProducerIdResponse;
import org.apache.kafka.common.requests.MetadataRequest;
import org.apache.kafka.common.requests.MetadataResponse;
import org.apache.kafka.common.requests.ProduceRequest;
import org.apache.kafka.common.requests.ProduceResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The per-connection dispatcher behind the frame decoder, driven with request bytes kafka-clients
 * serializes. Handlers are test doubles whose futures the test completes, so ordering, backpressure
 * and buffer lifetimes can be observed step by step.
 */
@ExtendWith(NettyLeakDetection.class)
class KafkaApiDispatcherTest {
    private static final short METADATA_VERSION = 12;
    private static final short PRODUCE_VERSION = 9;

    /** Metadata, Produce and InitProducerId answered by futures the test completes. */
    private final Pending<MetadataRequest, MetadataResponse> metadata = new Pending<>();
    private final Pending<ProduceRequest, ProduceResponse> produce = new Pending<>();
    private final Pending<InitProducerIdRequest, InitProducerIdResponse> initProducerId = new Pending<>();
    private WireChannel wire;

    @AfterEach
    void closeAndCheckBuffers() {
        if (wire != null) {
            wire.close(); // asserts every frame and every allocated buffer was released
        }
    }

    // ---- ordering -------------------------------------------------------------------------------

    @Test
    void responsesAreWrittenInRequestOrderWhenHandlersCompleteInReverse() {
        wire = new WireChannel(registry());
        int first = wire.send(metadataRequest());
        int second = wire.send(metadataRequest());
        int third = wire.send(metadataRequest());
        assertThat(metadata.futures).hasSize(3);

        metadata.complete(2, metadataResponse("third"));
        metadata.complete(1, metadataResponse("second"));
        assertThat(wire.outboundCount()).as("responses written before the first one is ready").isZero();

        metadata.complete(0, metadataResponse("first"));

        assertThat(wire.outboundCount()).isEqualTo(3);
        assertThat(receiveMetadata(first).data().clusterId()).isEqualTo("first");
        assertThat(receiveMetadata(second).data().clusterId()).isEqualTo("second");
        assertThat(receiveMetadata(third).data().clusterId()).isEqualTo("third");
    }

    @Test
    void aResponseGoesOutAsSoonAsEveryEarlierOneHas() {
        wire = new WireChannel(registry());
        int first = wire.send(metadataRequest());
        int second = wire.send(metadataRequest());
        int third = wire.send(metadataRequest());

        metadata.complete(0, metadataResponse("first"));
        assertThat(receiveMetadata(first).data().clusterId()).isEqualTo("first");

        metadata.complete(2, metadataResponse("third"));
        assertThat(wire.outboundCount()).isZero();

        metadata.complete(1, metadataResponse("second"));
        assertThat(receiveMetadata(second).data().clusterId()).isEqualTo("second");
        assertThat(receiveMetadata(third).data().clusterId()).isEqualTo("third");
        assertThat(wire.outboundCount()).isZero();
    }

    // ---- blocking handlers ----------------------------------------------------------------------

    @Test
    void aBlockingHandlerRunsOnItsExecutorAndLaterRequestsWaitUntilItIsDone() {
        ArrayDeque<Runnable> blocking = new ArrayDeque<>();
        wire = new WireChannel(blockingRegistry(), ConnectionLimits.DEFAULT, blocking::add);
        int init = wire.send(initProducerIdRequest());
        int meta = wire.send(metadataRequest());

        assertThat(initProducerId.requests).as("not run on the event loop").isEmpty();
        assertThat(metadata.requests).as("later requests wait for the blocking one").isEmpty();
        blocking.poll().run();
        assertThat(initProducerId.requests).hasSize(1);
        assertThat(metadata.requests).isEmpty();

        initProducerId.complete(0, new InitProducerIdResponse(new InitProducerIdResponseData().setProducerId(7)));
        assertThat(metadata.requests).as("dispatched once the blocking handler finished").hasSize(1);
        metadata.complete(0, metadataResponse("after"));

        assertThat(wire.<InitProducerIdResponse>receive(initProducerIdRequest(), init).data().producerId()).isEqualTo(7);
        assertThat(receiveMetadata(meta).data().clusterId()).isEqualTo("after");
    }

    @Test
    void aBlockingHandlerStillRunningWhenTheClientHangsUpGivesItsFrameBackWhenItFinishes() {
        ArrayDeque<Runnable> blocking = new ArrayDeque<>();
        wire = new WireChannel(blockingRegistry(), ConnectionLimits.DEFAULT, blocking::add);
        wire.send(initProducerIdRequest());
        wire.send(metadataRequest());
        blocking.poll().run();

        wire.disconnect();
        initProducerId.complete(0, new InitProducerIdResponse(new InitProducerIdResponseData()));

        assertThat(metadata.requests).as("nothing is dispatched on a closed connection").isEmpty();
        wire.assertNoLeaks();
    }

    // ---- acks=0 ---------------------------------------------------------------------------------

    @Test
    void anAcksZeroProduceGetsNoResponseAndTakesNoPlaceInTheOrder() {
        wire = new WireChannel(registry());
        wire.send(produceRequest((short) 0));
        int next = wire.send(metadataRequest());

        metadata.complete(0, metadataResponse("not behind the produce"));
        assertThat(receiveMetadata(next).data().clusterId()).isEqualTo("not behind the produce");

        produce.complete(0, produceResponse(Errors.NONE));
        assertThat(wire.outboundCount()).as("responses to an acks=0 produce").isZero();
        assertThat(wire.isOpen()).isTrue();
    }

    @Test
    void anAcksZeroProduceThatFailsClosesTheConnection() {
        wire = new WireChannel(registry());
        wire.send(produceRequest((short) 0));

        produce.complete(0, produceResponse(Errors.NOT_LEADER_OR_FOLLOWER));

        assertThat(wire.isOpen()).isFalse();
        assertThat(wire.outboundCount()).isZero();
    }

    @Test
    void anAcksZeroProduceWhoseHandlerFailsClosesTheConnection() {
        wire = new WireChannel(registry());
        wire.send(produceRequest((short) 0));

        produce.futures.get(0).completeExceptionally(new IllegalStateException("disk on fire"));

        assertThat(wire.isOpen()).isFalse();
        assertThat(wire.outboundCount()).isZero();
    }

    @Test
    void anAcksOneProduceIsAnsweredInOrder() {
        wire = new WireChannel(registry());
        int produceId = wire.send(produceRequest((short) 1));
        int metadataId = wire.send(metadataRequest());

        metadata.complete(0, metadataResponse("second"));
        assertThat(wire.outboundCount()).isZero();
        produce.complete(0, produceResponse(Errors.NONE));

        ProduceResponse produced = wire.receive(produceRequest((short) 1), produceId);
        assertThat(produced.data().responses().iterator().next().partitionResponses().get(0).baseOffset()).isEqualTo(42L);
        assertThat(receiveMetadata(metadataId).data().clusterId()).isEqualTo("second");
    }

    // ---- what closes the connection ---------------------------------------------------------------

    @Test
    void anUnknownApiKeyClosesTheConnection() {
        wire = new WireChannel(registry());
        ByteBuf unknown = Frames.frameClaiming(metadataRequest(), 1, 999, 0);
        ByteBuf behind = Frames.frame(metadataRequest(), 2);

        wire.write(Unpooled.wrappedBuffer(unknown, behind));

        assertThat(wire.isOpen()).isFalse();
        assertThat(metadata.futures).as("requests handled after the bad frame").isEmpty();
        assertThat(wire.outboundCount()).isZero();
    }

    @Test
    void aKeyThisBrokerDoesNotServeClosesTheConnection() {
        wire = new WireChannel(registry());
        wire.send(FetchRequest.Builder.forConsumer((short) 12, 100, 1, Map.of()).build((short) 12));

        assertThat(wire.isOpen()).isFalse();
        assertThat(wire.outboundCount()).isZero();
    }

    static Stream<Arguments> unservedVersions() {
        return Stream.of(
                Arguments.of("Metadata v0 (served from v1 here)", new MetadataRequest(
                        new MetadataRequestData(), (short) 0)),
                Arguments.of("Produce v2 (served from v3 here)", new ProduceRequest(
                        new ProduceRequestData().setAcks((short) 1).setTimeoutMs(1000), (short) 2)),
                Arguments.of("InitProducerId v4 (served up to v3 here)", new InitProducerIdRequest.Builder(
                        new InitProducerIdRequestData().setTransactionalId(null).setTransactionTimeoutMs(1000)).build((short) 4)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("unservedVersions")
    void anUnservedVersionOfAServedKeyClosesTheConnection(String name, AbstractRequest request) {
        ApiRegistry narrow = ApiRegistry.builder()
                .serve(ApiKeys.METADATA, 1, 12, metadata.handler())
                .serve(ApiKeys.PRODUCE, 3, 10, produce.handler())
                .serve(ApiKeys.INIT_PRODUCER_ID, 0, 3, initProducerId.handler())
                .build();
        wire = new WireChannel(narrow);

        wire.send(request);

        assertThat(wire.isOpen()).isFalse();
        assertThat(wire.outboundCount()).isZero();
        assertThat(metadata.futures).isEmpty();
        assertThat(produce.futures).isEmpty();
        assertThat(initProducerId.futures).isEmpty();
    }

    @Test
    void garbageBytesCloseTheConnection() {
        wire = new WireChannel(registry());

        wire.write(Frames.frame("definitely not kafka".getBytes(StandardCharsets.US_ASCII)));

        assertThat(wire.isOpen()).isFalse();
        assertThat(wire.outboundCount()).isZero();
    }

    @Test
    void aBodyThatDoesNotParseClosesTheConnection() {
        wire = new WireChannel(registry());
        byte[] whole = Frames.headerAndBody(metadataRequest(), 1);
        byte[] cut = Arrays.copyOf(whole, whole.length - 3); // a valid header, a truncated body

        wire.write(Frames.frame(cut));

        assertThat(wire.isOpen()).isFalse();
        assertThat(metadata.futures).isEmpty();
    }

    @Test
    void anEmptyFrameClosesTheConnection() {
        wire = new WireChannel(registry());

        wire.write(Frames.frame(new byte[0]));

        assertThat(wire.isOpen()).isFalse();
    }

    @Test
    void requestsStillInFlightWhenTheConnectionClosesReleaseTheirFramesWhenTheyComplete() {
        wire = new WireChannel(registry());
        wire.send(metadataRequest());
        wire.write(Frames.frame("garbage".getBytes(StandardCharsets.US_ASCII)));
        assertThat(wire.isOpen()).isFalse();

        metadata.complete(0, metadataResponse("too late"));

        assertThat(wire.outboundCount()).isZero();
        wire.assertNoLeaks();
    }

    // ---- ApiVersions ------------------------------------------------------------------------------

    @ParameterizedTest(name = "ApiVersions v{0}")
    @ValueSource(shorts = {0, 1, 2, 3})
    void apiVersionsListsTheRegistryWithAVersionZeroHeader(short version) {
        ApiRegistry registry = registry();
        wire = new WireChannel(registry);
        int id = wire.send(new ApiVersionsRequest.Builder().build(version));

        Responses.Received<ApiVersionsResponse> received =
                Responses.parse(wire.nextResponse(), ApiKeys.API_VERSIONS, version, (short) 0);

        assertThat(received.correlationId()).isEqualTo(id);
        assertThat(received.body().data().errorCode()).isEqualTo(Errors.NONE.code());
        assertThat(received.body().data().apiKeys()).isEqualTo(registry.apiVersions());
    }

    @ParameterizedTest(name = "ApiVersions v{0}")
    @ValueSource(shorts = {4, 5, 127, Short.MAX_VALUE})
    void apiVersionsAboveTheServedRangeGetsTheKip511Answer(short version) {
        wire = new WireChannel(registry());
        // A newer client's ApiVersions: a v3 body under a header that claims the newer version.
        ApiVersionsRequest v3 = new ApiVersionsRequest.Builder().build((short) 3);
        wire.write(Frames.frameClaiming(v3, 7, ApiKeys.API_VERSIONS.id, version));

        Responses.Received<ApiVersionsResponse> received =
                Responses.parse(wire.nextResponse(), ApiKeys.API_VERSIONS, (short) 0, (short) 0);

        assertThat(received.correlationId()).isEqualTo(7);
        ApiVersionsResponseData data = received.body().data();
        assertThat(data.errorCode()).isEqualTo(Errors.UNSUPPORTED_VERSION.code());
        assertThat(data.apiKeys()).containsExactly(new ApiVersionsResponseData.ApiVersion()
                .setApiKey(ApiKeys.API_VERSIONS.id).setMinVersion((short) 0).setMaxVersion((short) 3));
        assertThat(wire.isOpen()).as("the client retries on the same connection").isTrue();

        // ...and the retry at v3 gets the full list.
        int retry = wire.send(v3);
        Responses.Received<ApiVersionsResponse> full =
                Responses.parse(wire.nextResponse(), ApiKeys.API_VERSIONS, (short) 3, (short) 0);
        assertThat(full.correlationId()).isEqualTo(retry);
        assertThat(full.body().data().errorCode()).isZero();
        assertThat(full.body().data().apiKeys()).hasSize(4);
    }

    @Test
    void apiVersionsV3WithAnInvalidClientSoftwareNameIsAnInvalidRequest() {
        wire = new WireChannel(registry());
        int id = wire.send(new ApiVersionsRequest(new ApiVersionsRequestData()
                .setClientSoftwareName("bad name!").setClientSoftwareVersion("3.7.2"), (short) 3));

        Responses.Received<ApiVersionsResponse> received =
                Responses.parse(wire.nextResponse(), ApiKeys.API_VERSIONS, (short) 3, (short) 0);

        assertThat(received.correlationId()).isEqualTo(id);
        assertThat(received.body().data().errorCode()).isEqualTo(Errors.INVALID_REQUEST.code());
        assertThat(wire.isOpen()).isTrue();
    }

    // ---- handler failures ------------------------------------------------------------------------

    @Test
    void aHandlerThatThrowsGetsItsApisErrorResponseWithUnknownServerError() {
        ApiRegistry registry = ApiRegistry.builder()
                .serve(ApiKeys.INIT_PRODUCER_ID, 0, 4, (context, request) -> {
                    throw new IllegalStateException("bug in a handler");
                })
                .build();
        wire = new WireChannel(registry);

        InitProducerIdResponse response = wire.roundTrip(initProducerIdRequest());

        assertThat(response.data().errorCode()).isEqualTo(Errors.UNKNOWN_SERVER_ERROR.code());
        assertThat(response.data().producerId()).isEqualTo(-1L);
        assertThat(wire.isOpen()).isTrue();
    }

    @Test
    void aHandlerWhoseFutureFailsGetsUnknownServerError() {
        wire = new WireChannel(registry());
        int id = wire.send(initProducerIdRequest());

        initProducerId.futures.get(0).completeExceptionally(new IllegalStateException("lost the block store"));

        assertThat(wire.<InitProducerIdResponse>receive(initProducerIdRequest(), id).data().errorCode())
                .isEqualTo(Errors.UNKNOWN_SERVER_ERROR.code());
    }

    @Test
    void aMetadataHandlerFailureFailsEveryRequestedTopic() {
        wire = new WireChannel(registry());
        MetadataRequest request = new MetadataRequest.Builder(List.of("a", "b"), false).build(METADATA_VERSION);
        int id = wire.send(request);

        metadata.futures.get(0).completeExceptionally(new IllegalStateException("boom"));

        MetadataResponse response = wire.receive(request, id);
        assertThat(response.data().topics()).extracting(MetadataResponseData.MetadataResponseTopic::name,
                        MetadataResponseData.MetadataResponseTopic::errorCode)
                .containsExactly(tuple("a", Errors.UNKNOWN_SERVER_ERROR.code()),
                        tuple("b", Errors.UNKNOWN_SERVER_ERROR.code()));
    }

    @Test
    void aKafkaExceptionThrownByAHandlerMapsToItsCode() {
        ApiRegistry registry = ApiRegistry.builder()
                .serve(ApiKeys.INIT_PRODUCER_ID, 0, 4, (context, request) -> {
                    throw new KafkaException(KafkaError.NOT_COORDINATOR, "moved");
                })
                .build();
        wire = new WireChannel(registry);

        InitProducerIdResponse response = wire.roundTrip(initProducerIdRequest());

        assertThat(response.data().errorCode()).isEqualTo(Errors.NOT_COORDINATOR.code());
    }

    @Test
    void aKafkaExceptionFailingTheFutureMapsToItsCodeEvenWhenWrapped() {
        wire = new WireChannel(registry());
        int id = wire.send(initProducerIdRequest());
        CompletableFuture<InitProducerIdResponse> source = new CompletableFuture<>();
        // A stage derived from a failed one fails with a CompletionException around the cause.
        source.thenApply(r -> r).whenComplete((r, e) -> initProducerId.futures.get(0).completeExceptionally(e));

        source.completeExceptionally(new KafkaException(KafkaError.CONCURRENT_TRANSACTIONS, "busy"));

        assertThat(wire.<InitProducerIdResponse>receive(initProducerIdRequest(), id).data().errorCode())
                .isEqualTo(Errors.CONCURRENT_TRANSACTIONS.code());
    }

    @Test
    void anApiExceptionKeepsItsCode() {
        wire = new WireChannel(registry());
        int id = wire.send(initProducerIdRequest());

        initProducerId.futures.get(0).completeExceptionally(new InvalidRequestException("no"));

        assertThat(wire.<InitProducerIdResponse>receive(initProducerIdRequest(), id).data().errorCode())
                .isEqualTo(Errors.INVALID_REQUEST.code());
    }

    @Test
    void aResponseThatCannotBeEncodedAtTheRequestVersionGetsAnErrorResponseInItsPlace() {
        wire = new WireChannel(registry());
        MetadataRequest v1 = new MetadataRequest.Builder(List.of("t"), true).build((short) 1);
        int first = wire.send(v1);
        int second = wire.send(metadataRequest());
        // A topic without a name cannot be written before Metadata v12.
        MetadataResponseData unencodable = new MetadataResponseData();
        unencodable.topics().add(new MetadataResponseData.MetadataResponseTopic().setName(null));

        metadata.complete(1, metadataResponse("second"));
        metadata.complete(0, new MetadataResponse(unencodable, (short) 1));

        MetadataResponse failed = wire.receive(v1, first);
        assertThat(failed.data().topics()).singleElement()
                .satisfies(t -> assertThat(t.errorCode()).isEqualTo(Errors.UNKNOWN_SERVER_ERROR.code()));
        assertThat(receiveMetadata(second).data().clusterId()).isEqualTo("second");
        assertThat(wire.isOpen()).isTrue();
    }

    @Test
    void aHandlerThatCompletesWithoutAResponseGetsUnknownServerError() {
        wire = new WireChannel(registry());
        int id = wire.send(initProducerIdRequest());

        initProducerId.complete(0, null);

        assertThat(wire.<InitProducerIdResponse>receive(initProducerIdRequest(), id).data().errorCode())
                .isEqualTo(Errors.UNKNOWN_SERVER_ERROR.code());
        assertThat(wire.isOpen()).isTrue();
    }

    // ---- backpressure ----------------------------------------------------------------------------

    /** KIP-219: a throttled client is answered at once, then its connection is not read for the throttle time. */
    @Test
    void aThrottledResponseGoesOutAtOnceThenReadingPausesForTheThrottleTime() {
        wire = new WireChannel(registry());
        wire.channel().freezeTime();
        int id = wire.send(metadataRequest());

        metadata.complete(0, new MetadataResponse(new MetadataResponseData().setClusterId("c").setThrottleTimeMs(250),
                METADATA_VERSION));

        assertThat(receiveMetadata(id).throttleTimeMs()).isEqualTo(250);
        assertThat(wire.isAutoRead()).as("throttled").isFalse();
        wire.channel().advanceTimeBy(249, TimeUnit.MILLISECONDS);
        wire.channel().runScheduledPendingTasks();
        assertThat(wire.isAutoRead()).as("still throttled").isFalse();
        wire.channel().advanceTimeBy(1, TimeUnit.MILLISECONDS);
        wire.channel().runScheduledPendingTasks();
        assertThat(wire.isAutoRead()).as("the throttle is over").isTrue();
    }

    @Test
    void readingStopsAtTheRequestLimitAndResumesWhenAnswered() {
        wire = new WireChannel(registry(), new ConnectionLimits(2, Long.MAX_VALUE));
        assertThat(wire.isAutoRead()).isTrue();

        wire.send(metadataRequest());
        assertThat(wire.isAutoRead()).isTrue();
        wire.send(metadataRequest());
        assertThat(wire.isAutoRead()).as("two requests in flight").isFalse();

        metadata.complete(1, metadataResponse("second"));
        assertThat(wire.isAutoRead()).as("the second is done but waits behind the first").isFalse();

        metadata.complete(0, metadataResponse("first"));
        assertThat(wire.isAutoRead()).isTrue();
        assertThat(wire.outboundCount()).isEqualTo(2);
    }

    @Test
    void anUnansweredAcksZeroProduceCountsTowardsTheLimitUntilItCompletes() {
        wire = new WireChannel(registry(), new ConnectionLimits(2, Long.MAX_VALUE));

        wire.send(produceRequest((short) 0));
        wire.send(metadataRequest());
        assertThat(wire.isAutoRead()).isFalse();

        produce.complete(0, produceResponse(Errors.NONE));
        assertThat(wire.isAutoRead()).isTrue();
        metadata.complete(0, metadataResponse("m"));
        assertThat(wire.outboundCount()).isEqualTo(1);
    }

    @Test
    void readingStopsAtTheByteLimitAndResumesWhenAnswered() {
        int frameBytes = Frames.headerAndBody(metadataRequest(), 1).length;
        wire = new WireChannel(registry(), new ConnectionLimits(100, 2L * frameBytes));

        wire.send(metadataRequest());
        assertThat(wire.isAutoRead()).as("one frame of %d bytes in flight", frameBytes).isTrue();
        wire.send(metadataRequest());
        assertThat(wire.isAutoRead()).as("two frames in flight").isFalse();

        metadata.complete(0, metadataResponse("first"));
        assertThat(wire.isAutoRead()).isTrue();
        metadata.complete(1, metadataResponse("second"));
        assertThat(wire.isAutoRead()).isTrue();
    }

    @Test
    void oneFrameLargerThanTheByteLimitPausesReadingUntilAnswered() {
        wire = new WireChannel(registry(), new ConnectionLimits(100, 10));

        wire.send(metadataRequest());
        assertThat(wire.isAutoRead()).isFalse();

        metadata.complete(0, metadataResponse("done"));
        assertThat(wire.isAutoRead()).isTrue();
    }

    // ---- buffer lifetime -------------------------------------------------------------------------

    @Test
    void eachFrameIsHeldUntilItsResponseAndThenReleased() {
        wire = new WireChannel(registry());
        ByteBuf first = Frames.frame(produceRequest((short) 1), 1);
        ByteBuf second = Frames.frame(metadataRequest(), 2);
        wire.write(first);
        wire.write(second);

        // The produce records are a view of the frame: it must stay alive while the handler works.
        MemoryRecords records = (MemoryRecords) produce.requests.get(0).data().topicData().iterator().next()
                .partitionData().get(0).records();
        assertThat(records.buffer().isDirect()).as("records alias the direct frame").isTrue();
        assertThat(first.refCnt()).isPositive();
        assertThat(second.refCnt()).isPositive();

        metadata.complete(0, metadataResponse("second"));
        assertThat(second.refCnt()).as("frame of the completed request").isZero();
        assertThat(first.refCnt()).isPositive();

        produce.complete(0, produceResponse(Errors.NONE));
        assertThat(first.refCnt()).isZero();
        assertThat(wire.outboundCount()).isEqualTo(2);
    }

    @Test
    void aProduceStillAppendingWhenTheClientHangsUpKeepsItsFrameUntilItCompletes() {
        wire = new WireChannel(registry());
        ByteBuf producing = Frames.frame(produceRequest((short) 1), 1);
        ByteBuf parked = Frames.frame(metadataRequest(), 2);
        wire.write(producing);
        wire.write(parked);
        MemoryRecords records = (MemoryRecords) produce.requests.get(0).data().topicData().iterator().next()
                .partitionData().get(0).records();
        long crc = records.batches().iterator().next().checksum();

        wire.disconnect();

        // Its batches are views of the frame, read later by an append queued on an I/O thread or deferred behind
        // a transaction verification that another broker answers: the frame must outlive the connection.
        assertThat(producing.refCnt()).as("frame of the produce still appending").isPositive();
        assertThat(parked.refCnt()).as("frame of a request that reads nothing more").isZero();
        assertThat(records.batches().iterator().next().checksum()).isEqualTo(crc);
        assertThat(records.batches().iterator().next().isValid()).isTrue();

        produce.complete(0, produceResponse(Errors.NONE));
        assertThat(producing.refCnt()).as("given back once the appends ran").isZero();
        assertThat(wire.outboundCount()).isZero();
        wire.assertNoLeaks();
    }

    @Test
    void framesArriveWhateverTheReadBoundaries() {
        wire = new WireChannel(registry());
        byte[] a = bytes(Frames.frame(metadataRequest(), 1));
        byte[] b = bytes(Frames.frame(metadataRequest(), 2));
        byte[] both = new byte[a.length + b.length];
        System.arraycopy(a, 0, both, 0, a.length);
        System.arraycopy(b, 0, both, a.length, b.length);

        for (int from = 0; from < both.length; from += 7) {
            byte[] chunk = Arrays.copyOfRange(both, from, Math.min(from + 7, both.length));
            wire.write(Unpooled.directBuffer(chunk.length).writeBytes(chunk));
        }
        metadata.complete(0, metadataResponse("1"));
        metadata.complete(1, metadataResponse("2"));

        assertThat(receiveMetadata(1).data().clusterId()).isEqualTo("1");
        assertThat(receiveMetadata(2).data().clusterId()).isEqualTo("2");
    }

    // ---- helpers ---------------------------------------------------------------------------------

    /** The same handlers, with InitProducerId marked blocking. */
    private ApiRegistry blockingRegistry() {
        return ApiRegistry.builder()
                .serve(ApiKeys.METADATA, 1, 12, metadata.handler())
                .serveBlocking(ApiKeys.INIT_PRODUCER_ID, 0, 4, initProducerId.handler())
                .build();
    }

    private ApiRegistry registry() {
        return ApiRegistry.builder()
                .serve(ApiKeys.METADATA, 1, 12, metadata.handler())
                .serve(ApiKeys.PRODUCE, 3, 10, produce.handler())
                .serve(ApiKeys.INIT_PRODUCER_ID, 0, 4, initProducerId.handler())
                .build();
    }

    private MetadataResponse receiveMetadata(int correlationId) {
        return wire.receive(metadataRequest(), correlationId);
    }

    private static MetadataRequest metadataRequest() {
        return new MetadataRequest.Builder(List.of("orders"), false).build(METADATA_VERSION);
    }

    private static MetadataResponse metadataResponse(String clusterId) {
        return new MetadataResponse(new MetadataResponseData().setClusterId(clusterId), METADATA_VERSION);
    }

    private static ProduceRequest produceRequest(short acks) {
        MemoryRecords records = MemoryRecords.withRecords(CompressionType.NONE,
                new SimpleRecord(1_000L, "v".getBytes(StandardCharsets.UTF_8)));
        ProduceRequestData data = new ProduceRequestData().setAcks(acks).setTimeoutMs(30_000);
        ProduceRequestData.TopicProduceData topic = new ProduceRequestData.TopicProduceData().setName("orders");
        topic.partitionData().add(new ProduceRequestData.PartitionProduceData().setIndex(0).setRecords(records));
        data.topicData().add(topic);
        return ProduceRequest.forCurrentMagic(data).build(PRODUCE_VERSION);
    }

    private static ProduceResponse produceResponse(Errors error) {
        ProduceResponseData data = new ProduceResponseData();
        ProduceResponseData.TopicProduceResponse topic = new ProduceResponseData.TopicProduceResponse().setName("orders");
        topic.partitionResponses().add(new ProduceResponseData.PartitionProduceResponse().setIndex(0)
                .setErrorCode(error.code()).setBaseOffset(error == Errors.NONE ? 42L : -1L));
        data.responses().add(topic);
        return new ProduceResponse(data);
    }

    private static InitProducerIdRequest initProducerIdRequest() {
        return new InitProducerIdRequest.Builder(new InitProducerIdRequestData().setTransactionalId(null).setTransactionTimeoutMs(60_000))
                .build((short) 4);
    }

    private static byte[] bytes(ByteBuf buf) {
        byte[] out = new byte[buf.readableBytes()];
        buf.readBytes(out);
        buf.release();
        return out;
    }

    /** A handler that parks every request on a future the test completes. */
    private static final class Pending<Q extends AbstractRequest, R extends AbstractResponse> {
        final List<Q> requests = new ArrayList<>();
        final List<CompletableFuture<R>> futures = new ArrayList<>();

        ApiHandler<Q> handler() {
            return (context, request) -> {
                CompletableFuture<R> future = new CompletableFuture<>();
                requests.add(request);
                futures.add(future);
                return future;
            };
        }

        void complete(int index, R response) {
            futures.get(index).complete(response);
        }
    }
}
