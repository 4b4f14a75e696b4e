package io.kaas.adapter.wire.dispatch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kaas.domain.security.KafkaPrincipal;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.apache.kafka.common.message.ApiVersionsRequestData;
import org.apache.kafka.common.message.ApiVersionsResponseData;
import org.apache.kafka.common.message.MetadataResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.AbstractResponse;
import org.apache.kafka.common.requests.ApiVersionsRequest;
import org.apache.kafka.common.requests.ApiVersionsResponse;
import org.apache.kafka.common.requests.MetadataRequest;
import org.apache.kafka.common.requests.MetadataResponse;
import org.apache.kafka.common.requests.RequestHeader;
import org.junit.jupiter.api.Test;

/** The served surface: ranges are checked against kafka-clients, and ApiVersions is built from it. */
class ApiRegistryTest {
    private static final ApiHandler<AbstractRequest> UNUSED =
            (context, request) -> CompletableFuture.failedFuture(new AssertionError("handler must not be called"));

    @Test
    void rejectsAMinimumBelowTheOldestVersionKafkaClientsDefines() {
        assertThatThrownBy(() -> ApiRegistry.builder().serve(ApiKeys.PRODUCE, ApiKeys.PRODUCE.oldestVersion() - 1, 9, UNUSED))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("PRODUCE");
    }

    @Test
    void rejectsAMaximumAboveTheLatestVersionKafkaClientsDefines() {
        int beyond = ApiKeys.FETCH.latestVersion() + 1;
        assertThatThrownBy(() -> ApiRegistry.builder().serve(ApiKeys.FETCH, 4, beyond, UNUSED))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("FETCH");
    }

    @Test
    void rejectsVersionsKafkaClientsMarksUnstable() {
        // Apache does not advertise them (unstable.api.versions.enable=false); in 3.7.2 that is ConsumerGroupDescribe v0.
        List<ApiKeys> withUnstableLatest = Arrays.stream(ApiKeys.values())
                .filter(key -> key.latestVersion() > key.latestVersion(false)).toList();
        assertThat(withUnstableLatest).contains(ApiKeys.CONSUMER_GROUP_DESCRIBE);

        for (ApiKeys key : withUnstableLatest) {
            assertThatThrownBy(() -> ApiRegistry.builder().serve(key, key.latestVersion(), key.latestVersion(), UNUSED))
                    .as("%s v%d", key, key.latestVersion()).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("stable");
        }
    }

    @Test
    void rejectsAnEmptyRange() {
        assertThatThrownBy(() -> ApiRegistry.builder().serve(ApiKeys.METADATA, 5, 4, UNUSED))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void acceptsEveryStableVersionKafkaClientsDefines() {
        ApiRegistry registry = ApiRegistry.builder()
                .serve(ApiKeys.METADATA, ApiKeys.METADATA.oldestVersion(), ApiKeys.METADATA.latestVersion(false), UNUSED)
                .build();

        for (short v = ApiKeys.METADATA.oldestVersion(); v <= ApiKeys.METADATA.latestVersion(false); v++) {
            assertThat(registry.serves(ApiKeys.METADATA, v)).as("Metadata v%d", v).isTrue();
        }
    }

    @Test
    void rejectsRegisteringAKeyTwice() {
        ApiRegistry.Builder builder = ApiRegistry.builder().serve(ApiKeys.METADATA, 0, 12, UNUSED);

        assertThatThrownBy(() -> builder.serve(ApiKeys.METADATA, 1, 2, UNUSED))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("twice");
    }

    @Test
    void apiVersionsCannotBeRegisteredBecauseTheRegistryAnswersItItself() {
        ApiRegistry.Builder builder = ApiRegistry.builder().serve(ApiKeys.API_VERSIONS, 0, 3, UNUSED);

        assertThatThrownBy(builder::build).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void apiVersionsIsAlwaysServed() {
        ApiRegistry empty = ApiRegistry.builder().build();

        assertThat(empty.entries()).containsOnlyKeys(ApiKeys.API_VERSIONS);
        assertThat(ranges(empty.apiVersions())).containsExactly(
                Map.entry(ApiKeys.API_VERSIONS, range(0, ApiKeys.API_VERSIONS.latestVersion(false))));
        assertThat(empty.serves(ApiKeys.API_VERSIONS, (short) 0)).isTrue();
        assertThat(empty.serves(ApiKeys.API_VERSIONS, ApiKeys.API_VERSIONS.latestVersion(false))).isTrue();
        assertThat(empty.serves(ApiKeys.API_VERSIONS, (short) (ApiKeys.API_VERSIONS.latestVersion() + 1))).isFalse();
    }

    @Test
    void apiVersionsListsExactlyTheRegisteredKeysInKeyOrder() {
        ApiRegistry registry = ApiRegistry.builder()
                .serve(ApiKeys.METADATA, 1, 12, UNUSED)
                .serve(ApiKeys.PRODUCE, 3, 10, UNUSED)
                .serve(ApiKeys.DESCRIBE_CLUSTER, 0, 1, UNUSED)
                .build();

        Map<ApiKeys, String> expected = new LinkedHashMap<>();
        expected.put(ApiKeys.PRODUCE, "3-10");
        expected.put(ApiKeys.METADATA, "1-12");
        expected.put(ApiKeys.API_VERSIONS, "0-3");
        expected.put(ApiKeys.DESCRIBE_CLUSTER, "0-1");
        assertThat(ranges(registry.apiVersions())).containsExactlyEntriesOf(expected);
        assertThat(registry.entries().keySet()).containsExactlyElementsOf(expected.keySet());
    }

    @Test
    void servesExactlyTheRegisteredRange() {
        ApiRegistry registry = ApiRegistry.builder().serve(ApiKeys.PRODUCE, 3, 10, UNUSED).build();

        assertThat(registry.serves(ApiKeys.PRODUCE, (short) 2)).isFalse();
        assertThat(registry.serves(ApiKeys.PRODUCE, (short) 3)).isTrue();
        assertThat(registry.serves(ApiKeys.PRODUCE, (short) 10)).isTrue();
        assertThat(registry.serves(ApiKeys.PRODUCE, (short) 11)).isFalse();
        assertThat(registry.serves(ApiKeys.FETCH, (short) 12)).as("unregistered key").isFalse();
    }

    @Test
    void anOlderAdvertisedVersionIsNamedInApiVersionsButNotServed() {
        ApiRegistry registry = ApiRegistry.builder().serve(ApiKeys.PRODUCE, 3, 10, UNUSED)
                .advertiseFrom(ApiKeys.PRODUCE, 0).build();

        assertThat(ranges(registry.apiVersions())).containsEntry(ApiKeys.PRODUCE, "0-10");
        assertThat(registry.serves(ApiKeys.PRODUCE, (short) 2)).isFalse();
        assertThat(registry.serves(ApiKeys.PRODUCE, (short) 3)).isTrue();
        assertThatThrownBy(() -> ApiRegistry.builder().serve(ApiKeys.PRODUCE, 3, 10, UNUSED)
                .advertiseFrom(ApiKeys.PRODUCE, 4)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ApiRegistry.builder().advertiseFrom(ApiKeys.FETCH, 0))
                .as("an unregistered key").isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void handsARequestToTheHandlerRegisteredForItsKey() {
        MetadataResponse answer = new MetadataResponse(new MetadataResponseData().setClusterId("from-handler"), (short) 12);
        ApiHandler<MetadataRequest> metadata = (context, request) -> CompletableFuture.completedFuture(answer);
        ApiRegistry registry = ApiRegistry.builder().serve(ApiKeys.METADATA, 0, 12, metadata).build();
        MetadataRequest request = MetadataRequest.Builder.allTopics().build((short) 12);

        CompletionStage<? extends AbstractResponse> stage = registry.handle(context(ApiKeys.METADATA, 12), request);

        assertThat(stage.toCompletableFuture().join()).isSameAs(answer);
    }

    @Test
    void theApiVersionsHandlerAnswersFromTheRegistry() {
        ApiRegistry registry = ApiRegistry.builder().serve(ApiKeys.FETCH, 4, 16, UNUSED).build();
        ApiVersionsRequest request = new ApiVersionsRequest.Builder().build((short) 3);

        ApiVersionsResponse response = (ApiVersionsResponse) registry.handle(context(ApiKeys.API_VERSIONS, 3), request)
                .toCompletableFuture().join();

        assertThat(response.data().errorCode()).isEqualTo(Errors.NONE.code());
        assertThat(response.data().apiKeys()).isEqualTo(registry.apiVersions());
    }

    @Test
    void theApiVersionsHandlerRefusesAnInvalidClientSoftwareName() {
        ApiRegistry registry = ApiRegistry.builder().build();
        ApiVersionsRequest request = new ApiVersionsRequest(new ApiVersionsRequestData()
                .setClientSoftwareName("not valid!").setClientSoftwareVersion("1.0"), (short) 3);

        ApiVersionsResponse response = (ApiVersionsResponse) registry.handle(context(ApiKeys.API_VERSIONS, 3), request)
                .toCompletableFuture().join();

        assertThat(response.data().errorCode()).isEqualTo(Errors.INVALID_REQUEST.code());
        assertThat(response.data().apiKeys()).isEmpty();
    }

    private static RequestContext context(ApiKeys key, int version) {
        return new RequestContext(new RequestHeader(key, (short) version, "test", 1), null, Runnable::run,
                KafkaPrincipal.ANONYMOUS);
    }

    private static String range(int min, int max) {
        return min + "-" + max;
    }

    private static Map<ApiKeys, String> ranges(ApiVersionsResponseData.ApiVersionCollection versions) {
        Map<ApiKeys, String> out = new LinkedHashMap<>();
        versions.forEach(v -> out.put(ApiKeys.forId(v.apiKey()), range(v.minVersion(), v.maxVersion())));
        return out;
    }
}
