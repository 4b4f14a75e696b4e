import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The operator benchmark's timings (bench/operator.sh runs it as a single-file program on the Kafka 3.7 classpath).
 * Every topic has the shape of examples/kafkatopic.yaml: 3 partitions, retention.ms=604800000. Readiness is read from a
 * watch on the development API server's KafkaTopics (what `kubectl get kt` shows), timed when each event arrives.
 *
 *   java -cp CP OperatorProbe.java apply-to-ack  BOOTSTRAP API_URL KUBECONFIG REPEATS  kubectl apply -> Ready, first ack
 *   java -cp CP OperatorProbe.java create-to-ready BOOTSTRAP API_URL REPEATS           CreateTopics -> answer, Ready
 *   java -cp CP OperatorProbe.java bulk          API_URL COUNT PARTITIONS               COUNT KafkaTopics -> all Ready
 *   java -cp CP OperatorProbe.java apache-create BOOTSTRAP REPEATS COUNT PARTITIONS    Apache: CreateTopics latencies
 *
 * Prints "metric value" lines; times in milliseconds.
 */
public class OperatorProbe {
    private static final String TOPICS = "/apis/kaas.rs/v1alpha1/namespaces/default/kafkatopics";
    private static final long RETENTION_MS = 604_800_000L;
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    public static void main(String[] args) throws Exception {
        switch (args[0]) {
            case "apply-to-ack" -> applyToAck(args[1], args[2], args[3], Integer.parseInt(args[4]));
            case "create-to-ready" -> createToReady(args[1], args[2], Integer.parseInt(args[3]));
            case "bulk" -> bulk(args[1], Integer.parseInt(args[2]), Integer.parseInt(args[3]));
            case "apache-create" -> apacheCreate(args[1], Integer.parseInt(args[2]), Integer.parseInt(args[3]),
                    Integer.parseInt(args[4]));
            default -> throw new IllegalArgumentException("unknown mode " + args[0]);
        }
        System.exit(0); // the watch thread is not a daemon of ours to stop
    }

    /** Names first seen Ready=True on the watch, with System.nanoTime() of that event. */
    static final class ReadyWatch {
        final Map<String, Long> readyAt = new ConcurrentHashMap<>();

        ReadyWatch(String api) {
            HttpRequest watch = HttpRequest.newBuilder(URI.create(api + TOPICS + "?watch=true")).build();
            HTTP.sendAsync(watch, HttpResponse.BodyHandlers.ofLines()).thenAccept(response -> {
                try (Stream<String> lines = response.body()) {
                    lines.forEach(this::event);
                }
            });
        }

        private void event(String line) {
            long now = System.nanoTime();
            try {
                JsonNode object = JSON.readTree(line).path("object");
                for (JsonNode condition : object.at("/status/conditions")) {
                    if (condition.path("type").asText().equals("Ready") && condition.path("status").asText().equals("True")) {
                        readyAt.putIfAbsent(object.at("/metadata/name").asText(), now);
                        synchronized (this) {
                            notifyAll();
                        }
                    }
                }
            } catch (Exception e) {
                System.err.println("unreadable watch event: " + e);
            }
        }

        long awaitReady(String name, long timeoutMs) throws InterruptedException {
            awaitUntil(() -> readyAt.containsKey(name), timeoutMs, name + " not Ready");
            return readyAt.get(name);
        }

        /** Waits for the watch to make {@code done} true; the times measured are the events', not this wake-up's. */
        synchronized void awaitUntil(BooleanSupplier done, long timeoutMs, String failure) throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
            while (!done.getAsBoolean()) {
                long leftMs = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
                if (leftMs <= 0) {
                    throw new IllegalStateException(failure + " within " + timeoutMs + " ms");
                }
                wait(leftMs);
            }
        }
    }

    private static void applyToAck(String bootstrap, String api, String kubeconfig, int repeats) throws Exception {
        ReadyWatch watch = new ReadyWatch(api);
        Properties props = new Properties();
        props.put("bootstrap.servers", bootstrap);
        props.put("acks", "all");
        props.put("enable.idempotence", "true");
        props.put("linger.ms", "0");
        props.put("max.block.ms", "60000");
        // The client's own metadata backoff (100 ms growing to 1 s by default) would be measured otherwise.
        props.put("retry.backoff.ms", "10");
        props.put("retry.backoff.max.ms", "50");
        props.put("key.serializer", ByteArraySerializer.class.getName());
        props.put("value.serializer", ByteArraySerializer.class.getName());
        List<Long> toReady = new ArrayList<>();
        List<Long> toAck = new ArrayList<>();
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(props)) {
            for (int i = 0; i < repeats; i++) {
                String name = "applied-" + i;
                long start = System.nanoTime();
                kubectlApply(kubeconfig, name);
                producer.send(new ProducerRecord<>(name, 0, null, new byte[100])).get(60, TimeUnit.SECONDS);
                long acked = System.nanoTime();
                toAck.add(ms(acked - start));
                toReady.add(ms(watch.awaitReady(name, 60_000) - start));
            }
        }
        report("apply_to_ready_ms", toReady);
        report("apply_to_first_ack_ms", toAck);
    }

    private static void kubectlApply(String kubeconfig, String name) throws Exception {
        ProcessBuilder builder = new ProcessBuilder("kubectl", "apply", "-f", "-").redirectErrorStream(true);
        builder.environment().put("KUBECONFIG", kubeconfig);
        Process kubectl = builder.start();
        try (OutputStream in = kubectl.getOutputStream()) {
            in.write(yaml(name).getBytes(StandardCharsets.UTF_8));
        }
        String out = new String(kubectl.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (kubectl.waitFor() != 0) {
            throw new IllegalStateException("kubectl apply failed: " + out);
        }
    }

    private static String yaml(String name) {
        return "apiVersion: kaas.rs/v1alpha1\nkind: KafkaTopic\nmetadata:\n  name: " + name + "\nspec:\n  partitions: 3\n"
                + "  config:\n    retentionMs: " + RETENTION_MS + "\n";
    }

    private static void createToReady(String bootstrap, String api, int repeats) throws Exception {
        ReadyWatch watch = new ReadyWatch(api);
        List<Long> answered = new ArrayList<>();
        List<Long> toReady = new ArrayList<>();
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrap))) {
            admin.describeCluster().nodes().get(30, TimeUnit.SECONDS); // connected before the clock starts
            for (int i = 0; i < repeats; i++) {
                String name = "created-" + i;
                long start = System.nanoTime();
                admin.createTopics(List.of(shape(name, 3))).all().get(60, TimeUnit.SECONDS);
                answered.add(ms(System.nanoTime() - start));
                toReady.add(ms(watch.awaitReady(name, 60_000) - start));
            }
        }
        report("create_topics_answer_ms", answered);
        report("create_topics_to_ready_ms", toReady);
    }

    private static void bulk(String api, int count, int partitions) throws Exception {
        ReadyWatch watch = new ReadyWatch(api);
        Semaphore inFlight = new Semaphore(32);
        List<CompletableFuture<HttpResponse<String>>> posts = new ArrayList<>();
        long start = System.nanoTime();
        for (int i = 0; i < count; i++) {
            String body = "{\"apiVersion\":\"kaas.rs/v1alpha1\",\"kind\":\"KafkaTopic\",\"metadata\":{\"name\":\""
                    + String.format("bulk-%05d", i) + "\"},\"spec\":{\"partitions\":" + partitions
                    + ",\"config\":{\"retentionMs\":" + RETENTION_MS + "}}}";
            inFlight.acquire();
            posts.add(HTTP.sendAsync(HttpRequest.newBuilder(URI.create(api + TOPICS))
                            .header("Content-Type", "application/json")
                            .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString())
                    .whenComplete((response, error) -> inFlight.release()));
        }
        for (CompletableFuture<HttpResponse<String>> post : posts) {
            if (post.get().statusCode() != 201) {
                throw new IllegalStateException("POST refused: " + post.get().statusCode() + " " + post.get().body());
            }
        }
        long created = System.nanoTime();
        watch.awaitUntil(() -> watch.readyAt.keySet().stream().filter(n -> n.startsWith("bulk-")).count() >= count,
                TimeUnit.MINUTES.toMillis(15), "not every bulk- KafkaTopic Ready");
        long lastReady = watch.readyAt.entrySet().stream().filter(e -> e.getKey().startsWith("bulk-"))
                .mapToLong(Map.Entry::getValue).max().orElseThrow();
        System.out.println("bulk_count " + count);
        System.out.println("bulk_partitions_each " + partitions);
        System.out.println("bulk_all_created_ms " + ms(created - start));
        System.out.println("bulk_all_ready_ms " + ms(lastReady - start));
        System.out.printf("bulk_ready_per_second %.1f%n", count * 1000.0 / ms(lastReady - start));
    }

    private static void apacheCreate(String bootstrap, int repeats, int count, int partitions) throws Exception {
        List<Long> answered = new ArrayList<>();
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrap))) {
            admin.describeCluster().nodes().get(30, TimeUnit.SECONDS);
            for (int i = 0; i < repeats; i++) {
                long start = System.nanoTime();
                admin.createTopics(List.of(shape("created-" + i, 3))).all().get(60, TimeUnit.SECONDS);
                answered.add(ms(System.nanoTime() - start));
            }
            List<NewTopic> many = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                many.add(shape(String.format("bulk-%05d", i), partitions));
            }
            long start = System.nanoTime();
            admin.createTopics(many).all().get(15, TimeUnit.MINUTES);
            long all = ms(System.nanoTime() - start);
            System.out.println("apache_bulk_count " + count);
            System.out.println("apache_bulk_all_created_ms " + all);
            System.out.printf("apache_bulk_per_second %.1f%n", count * 1000.0 / all);
        }
        report("apache_create_topics_answer_ms", answered);
    }

    private static NewTopic shape(String name, int partitions) {
        return new NewTopic(name, partitions, (short) 1).configs(Map.of("retention.ms", Long.toString(RETENTION_MS)));
    }

    private static long ms(long nanos) {
        return TimeUnit.NANOSECONDS.toMillis(nanos);
    }

    /** The median, minimum and maximum of the samples, and the samples themselves. */
    private static void report(String metric, List<Long> samples) {
        List<Long> sorted = new ArrayList<>(samples);
        Collections.sort(sorted);
        System.out.println(metric + "_median " + sorted.get(sorted.size() / 2));
        System.out.println(metric + "_min " + sorted.get(0));
        System.out.println(metric + "_max " + sorted.get(sorted.size() - 1));
        System.out.println(metric + "_samples " + samples);
    }
}
