import java.io.FileReader;
import java.io.Reader;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * A warm consumer's read rate: one consumer, in a group of its own, reads TOPIC from its start PASSES times in one
 * JVM. The first pass warms the client up (the JIT of its TLS and record paths, which dominates a fresh
 * ConsumerPerformance run of a few seconds) and is not counted. Prints one line: records and seconds of the
 * counted passes, their records/s, and, given the broker's pid, the CPU clock ticks the broker used meanwhile.
 * <p>
 * Run on the Kafka 3.7 classpath: java -cp CP WarmConsumeProbe CLIENT_PROPERTIES HOST:PORT TOPIC PASSES [BROKER_PID]
 */
public class WarmConsumeProbe {
    private static final Duration PASS_TIMEOUT = Duration.ofMinutes(2);

    public static void main(String[] args) throws Exception {
        Properties props = new Properties();
        try (Reader in = new FileReader(args[0])) {
            props.load(in);
        }
        props.put("bootstrap.servers", args[1]);
        props.put("group.id", "warm-consume-" + System.nanoTime());
        props.put("auto.offset.reset", "earliest");
        props.put("enable.auto.commit", "false");
        // a pass ends at the log's end, where a Fetch parks: it must not hold the next pass for 500 ms
        props.put("fetch.max.wait.ms", "10");
        props.put("key.deserializer", ByteArrayDeserializer.class.getName());
        props.put("value.deserializer", ByteArrayDeserializer.class.getName());
        String topic = args[2];
        int passes = Integer.parseInt(args[3]);
        String brokerPid = args.length > 4 ? args[4] : null;
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props)) {
            consumer.subscribe(List.of(topic));
            while (consumer.assignment().isEmpty()) {
                consumer.poll(Duration.ofMillis(100));
            }
            Set<TopicPartition> partitions = consumer.assignment();
            long records = sum(consumer.endOffsets(partitions)) - sum(consumer.beginningOffsets(partitions));
            readAll(consumer, partitions, records); // the warm-up pass
            long ticks = ProcessTicks.of(brokerPid);
            long start = System.nanoTime();
            for (int pass = 1; pass < passes; pass++) {
                readAll(consumer, partitions, records);
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            ticks = ProcessTicks.of(brokerPid) - ticks;
            long counted = records * (passes - 1);
            System.out.printf("records=%d seconds=%.2f rec_per_s=%.1f broker_ticks=%d%n", counted, seconds,
                    counted / seconds, ticks);
        }
    }

    private static void readAll(KafkaConsumer<byte[], byte[]> consumer, Set<TopicPartition> partitions, long records) {
        consumer.seekToBeginning(partitions);
        long read = 0;
        long deadline = System.nanoTime() + PASS_TIMEOUT.toNanos();
        while (read < records) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("read " + read + " of " + records + " records in " + PASS_TIMEOUT);
            }
            read += consumer.poll(Duration.ofMillis(100)).count();
        }
    }

    private static long sum(Map<TopicPartition, Long> offsets) {
        return offsets.values().stream().mapToLong(Long::longValue).sum();
    }
}
