import java.io.FileReader;
import java.io.Reader;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.ApiVersions;
import org.apache.kafka.clients.ClientUtils;
import org.apache.kafka.clients.ManualMetadataUpdater;
import org.apache.kafka.clients.NetworkClient;
import org.apache.kafka.clients.NetworkClientUtils;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.metrics.Metrics;
import org.apache.kafka.common.network.ChannelBuilder;
import org.apache.kafka.common.network.Selector;
import org.apache.kafka.common.utils.LogContext;
import org.apache.kafka.common.utils.Time;

/**
 * New-connection authentication rate: opens COUNT connections, CONCURRENCY at a time, each completing the
 * listener's whole handshake with kafka-clients' own network stack (TCP, TLS, SASL: ApiVersions, SaslHandshake,
 * two SaslAuthenticate rounds for SCRAM) and then one request (the client's ApiVersions), then closes it.
 * A fifth of COUNT more connections go first, untimed, to warm up the client's JIT. Prints one line: connections,
 * failures, seconds, connections/s of the timed ones, and, given the broker's pid, the CPU clock ticks the broker
 * process used meanwhile (utime + stime from /proc/PID/stat).
 * <p>
 * {@code fresh} gives every connection a new client TLS context, so no connection resumes an earlier one's TLS
 * session: each is a full handshake (a fleet of new clients). {@code reuse} keeps one context per worker, so
 * the client may resume sessions the broker issued tickets for (one client reconnecting).
 * <p>
 * Run on the Kafka 3.7 classpath: java -cp CP AuthRateProbe.java CLIENT_PROPERTIES HOST:PORT COUNT CONCURRENCY fresh|reuse [BROKER_PID]
 */
public class AuthRateProbe {
    public static void main(String[] args) throws Exception {
        Properties props = new Properties();
        try (Reader in = new FileReader(args[0])) {
            props.load(in);
        }
        props.put("bootstrap.servers", args[1]);
        String[] hostPort = args[1].split(":");
        int count = Integer.parseInt(args[2]);
        int concurrency = Integer.parseInt(args[3]);
        boolean fresh = args[4].equals("fresh");
        AdminClientConfig config = new AdminClientConfig(props);
        Node broker = new Node(0, hostPort[0], Integer.parseInt(hostPort[1]));
        connect(config, broker, count / 5, concurrency, fresh);
        long ticks = brokerTicks(args);
        long start = System.nanoTime();
        int failures = connect(config, broker, count, concurrency, fresh);
        double seconds = (System.nanoTime() - start) / 1e9;
        ticks = brokerTicks(args) - ticks;
        System.out.printf("connections=%d failures=%d seconds=%.2f conn_per_s=%.1f broker_ticks=%d%n",
                count, failures, seconds, (count - failures) / seconds, ticks);
        System.exit(failures == 0 ? 0 : 1);
    }

    /** Opens {@code count} connections, {@code concurrency} at a time; answers how many failed. */
    private static int connect(AdminClientConfig config, Node broker, int count, int concurrency, boolean fresh)
            throws InterruptedException {
        AtomicInteger next = new AtomicInteger();
        AtomicInteger failures = new AtomicInteger();
        ExecutorService workers = Executors.newFixedThreadPool(concurrency);
        for (int w = 0; w < concurrency; w++) {
            workers.submit(() -> {
                ChannelBuilder shared = fresh ? null : channelBuilder(config);
                for (int id = next.getAndIncrement(); id < count; id = next.getAndIncrement()) {
                    ChannelBuilder builder = fresh ? channelBuilder(config) : shared;
                    try {
                        connectOnce(builder, broker);
                    } catch (Exception e) {
                        if (failures.incrementAndGet() <= 3) {
                            System.err.println("connection " + id + " failed: " + e);
                        }
                    } finally {
                        if (fresh) {
                            closeQuietly(builder);
                        }
                    }
                }
                if (shared != null) {
                    closeQuietly(shared);
                }
                return null;
            });
        }
        workers.shutdown();
        workers.awaitTermination(1, TimeUnit.HOURS);
        return failures.get();
    }

    /** utime + stime of the broker process in clock ticks, 0 without a pid. */
    private static long brokerTicks(String[] args) throws java.io.IOException {
        return ProcessTicks.of(args.length < 6 ? null : args[5]);
    }

    private static ChannelBuilder channelBuilder(AdminClientConfig config) {
        return ClientUtils.createChannelBuilder(config, Time.SYSTEM, new LogContext());
    }

    /** One connection through the whole handshake to its first answered request, then closed. */
    private static void connectOnce(ChannelBuilder builder, Node node) throws Exception {
        LogContext log = new LogContext();
        Metrics metrics = new Metrics();
        // the Selector does not own the builder: close() closes only the connection and the metrics
        Selector selector = new Selector(60_000, metrics, Time.SYSTEM, "auth-probe", new NonClosing(builder), log);
        try (NetworkClient client = new NetworkClient(selector, new ManualMetadataUpdater(), "auth-probe", 1, 0, 0,
                -1, -1, 30_000, 30_000, 30_000, Time.SYSTEM, true, new ApiVersions(), log)) {
            if (!NetworkClientUtils.awaitReady(client, node, Time.SYSTEM, 30_000)) {
                throw new IllegalStateException("not ready within 30 s");
            }
        } finally {
            metrics.close();
        }
    }

    private static void closeQuietly(AutoCloseable closeable) {
        try {
            closeable.close();
        } catch (Exception ignored) {
            // nothing to do at the end of a probe
        }
    }

    /** A builder shared by successive selectors, each of which would close it on its own close(). */
    private record NonClosing(ChannelBuilder delegate) implements ChannelBuilder {
        @Override
        public void configure(Map<String, ?> configs) {
            delegate.configure(configs);
        }

        @Override
        public org.apache.kafka.common.network.KafkaChannel buildChannel(String id,
                java.nio.channels.SelectionKey key, int maxReceiveSize,
                org.apache.kafka.common.memory.MemoryPool memoryPool,
                org.apache.kafka.common.network.ChannelMetadataRegistry metadataRegistry) {
            return delegate.buildChannel(id, key, maxReceiveSize, memoryPool, metadataRegistry);
        }

        @Override
        public void close() {
        }
    }
}
