package io.kaas.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kaas.adapter.wire.dispatch.EventLoopTicks;
import io.kaas.bootstrap.health.HealthReport;
import io.kaas.bootstrap.testing.EmbeddedKaas;
import io.kaas.bootstrap.testing.KaasBrokerExtension;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@code /healthz} and {@code /readyz} on {@code KAAS_HEALTH_PORT}, as a kubelet or a person with curl sees them. */
class HealthProbesIT {
    @RegisterExtension
    static final KaasBrokerExtension KAAS = KaasBrokerExtension.create();

    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private static HttpResponse<String> get(EmbeddedKaas kaas, String path) throws Exception {
        URI uri = URI.create("http://127.0.0.1:" + kaas.broker().healthPort() + path);
        return HTTP.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void healthzReportsTheRuntimeAndReadyzSaysReady(EmbeddedKaas kaas) throws Exception {
        String topic = EmbeddedKaas.uniqueTopicName("probed");
        kaas.createTopic(topic, 3);

        HttpResponse<String> health = get(kaas, "/healthz");
        assertThat(health.statusCode()).isEqualTo(200);
        assertThat(health.headers().firstValue("Content-Type")).hasValue("application/json");
        JsonNode json = new ObjectMapper().readTree(health.body());
        assertThat(json.get("role").asText()).isEqualTo("standalone");
        assertThat(json.get("is_controller").asBoolean()).isTrue();
        assertThat(json.get("partitions_led").asInt()).isGreaterThanOrEqualTo(3)
                .isEqualTo(json.get("partitions_assigned").asInt());
        assertThat(json.get("main_loop_tick_age_ms").asLong()).isLessThan(HealthReport.WEDGED_AFTER_MS);
        assertThat(json.get("ready").asBoolean()).isTrue();

        HttpResponse<String> ready = get(kaas, "/readyz");
        assertThat(ready.statusCode()).isEqualTo(200);
        assertThat(ready.body()).isEqualTo("ready\n");
    }

    @Test
    void onlyGetIsAnswered(EmbeddedKaas kaas) throws Exception {
        URI uri = URI.create("http://127.0.0.1:" + kaas.broker().healthPort() + "/readyz");
        HttpResponse<String> post = HTTP.send(HttpRequest.newBuilder(uri).POST(HttpRequest.BodyPublishers.noBody()).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(post.statusCode()).isEqualTo(405);
    }

    /** The tick the probes read: a loop kept busy shows an ever older tick, and a fresh one once it runs again. */
    @Test
    void aWedgedEventLoopShowsAsAnOldTick() throws Exception {
        EventLoopGroup loops = new MultiThreadIoEventLoopGroup(2, NioIoHandler.newFactory());
        try (EventLoopTicks ticks = new EventLoopTicks(List.of(loops), 50)) {
            await().atMost(Duration.ofSeconds(10)).until(() -> ticks.oldestTickAgeMs() < 200);
            CountDownLatch release = new CountDownLatch(1);
            loops.next().execute(() -> {
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });

            await().atMost(Duration.ofSeconds(10)).until(() -> ticks.oldestTickAgeMs() > 1_000);
            release.countDown();
            await().atMost(Duration.ofSeconds(10)).until(() -> ticks.oldestTickAgeMs() < 1_000);
        } finally {
            loops.shutdownGracefully(0, 1, java.util.concurrent.TimeUnit.SECONDS).syncUninterruptibly();
        }
    }
}
