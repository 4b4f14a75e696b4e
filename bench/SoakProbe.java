import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Issue 15's soak client: PRODUCERS producers (acks=all, each its own connection and thread, paced to share RATE
 * records/s; RATE 0 = as fast as they go) and CONSUMERS consumers in one group, all in this JVM, for SECONDS; a
 * JSON line per WINDOW seconds: records sent, acknowledged and consumed, client errors (failed sends, failed
 * polls), and the acknowledgement (send to callback) and end-to-end (CreateTime to poll) latency p50/p99/max.
 *   java -cp CLASSPATH bench/SoakProbe.java BOOTSTRAP TOPIC PARTITIONS PRODUCERS CONSUMERS RATE SECONDS WINDOW SIZE
 * The consumers join first (all PARTITIONS assigned) so every produced record is read while the run lasts.
 */
public class SoakProbe {
  /** Latencies in 0.1 ms buckets up to 30 s, the last bucket holding anything slower. */
  static final class Histogram {
    private static final int BUCKETS = 300_001;
    private final AtomicLongArray counts = new AtomicLongArray(BUCKETS);
    private final AtomicLong max = new AtomicLong();

    void record(long nanos) {
      counts.incrementAndGet((int) Math.min(BUCKETS - 1, Math.max(0, nanos / 100_000)));
      max.accumulateAndGet(nanos, Math::max);
    }

    String summary() {
      long total = 0;
      for (int i = 0; i < BUCKETS; i++) total += counts.get(i);
      return String.format("{\"count\":%d,\"p50_ms\":%.1f,\"p99_ms\":%.1f,\"max_ms\":%.1f}",
          total, quantile(total, 0.50), quantile(total, 0.99), max.get() / 1e6);
    }

    private double quantile(long total, double q) {
      if (total == 0) return 0;
      long rank = (long) Math.ceil(total * q), seen = 0;
      for (int i = 0; i < BUCKETS; i++) {
        seen += counts.get(i);
        if (seen >= rank) return (i + 1) / 10.0;
      }
      return BUCKETS / 10.0;
    }
  }

  /** What one window counts; swapped whole at each window's end. */
  static final class Window {
    final AtomicLong sent = new AtomicLong(), acked = new AtomicLong(), consumed = new AtomicLong();
    final AtomicLong sendErrors = new AtomicLong(), pollErrors = new AtomicLong();
    final Histogram ack = new Histogram(), endToEnd = new Histogram();
  }

  static final AtomicReference<Window> WINDOW = new AtomicReference<>(new Window());
  static final AtomicBoolean PRODUCING = new AtomicBoolean(true), CONSUMING = new AtomicBoolean(true);

  public static void main(String[] args) throws Exception {
    String bootstrap = args[0], topic = args[1];
    int partitions = Integer.parseInt(args[2]), producers = Integer.parseInt(args[3]),
        consumers = Integer.parseInt(args[4]);
    long rate = Long.parseLong(args[5]);
    int seconds = Integer.parseInt(args[6]), window = Integer.parseInt(args[7]), size = Integer.parseInt(args[8]);

    Set<TopicPartition> assigned = ConcurrentHashMap.newKeySet();
    CountDownLatch allAssigned = new CountDownLatch(1);
    ConsumerRebalanceListener noteAssignments = new ConsumerRebalanceListener() {
      @Override
      public void onPartitionsAssigned(Collection<TopicPartition> added) {
        assigned.addAll(added);
        if (assigned.size() >= partitions) allAssigned.countDown();
      }

      @Override
      public void onPartitionsRevoked(Collection<TopicPartition> revoked) {
      }
    };
    List<Thread> consumerThreads = new ArrayList<>();
    for (int i = 0; i < consumers; i++) {
      Thread t = new Thread(() -> consume(bootstrap, topic, noteAssignments), "soak-consumer-" + i);
      t.start();
      consumerThreads.add(t);
    }
    allAssigned.await(120, TimeUnit.SECONDS);
    System.err.printf("%s consumers hold %d of %d partitions%n", Instant.now(), assigned.size(), partitions);

    List<Thread> producerThreads = new ArrayList<>();
    for (int i = 0; i < producers; i++) {
      long intervalNanos = rate == 0 ? 0 : producers * 1_000_000_000L / rate;
      Thread t = new Thread(() -> produce(bootstrap, topic, size, intervalNanos), "soak-producer-" + i);
      t.start();
      producerThreads.add(t);
    }
    long start = System.nanoTime();
    for (int w = 1; w <= seconds / window; w++) {
      LockSupport.parkNanos(start + w * window * 1_000_000_000L - System.nanoTime());
      Window done = WINDOW.getAndSet(new Window());
      System.out.printf("{\"window\":%d,\"end_s\":%d,\"sent\":%d,\"acked\":%d,\"consumed\":%d,\"send_errors\":%d,"
              + "\"poll_errors\":%d,\"ack\":%s,\"e2e\":%s}%n", w, w * window, done.sent.get(), done.acked.get(),
          done.consumed.get(), done.sendErrors.get(), done.pollErrors.get(), done.ack.summary(), done.endToEnd.summary());
    }
    PRODUCING.set(false);
    for (Thread t : producerThreads) t.join();
    CONSUMING.set(false);
    for (Thread t : consumerThreads) t.join();
  }

  static void produce(String bootstrap, String topic, int size, long intervalNanos) {
    Properties props = new Properties();
    props.put("bootstrap.servers", bootstrap);
    props.put("acks", "all");
    // 4 MiB of buffer each, not 32: fifty unpaced producers would otherwise fill this JVM's heap while calibrating
    props.put("buffer.memory", Integer.toString(4 << 20));
    props.put("key.serializer", ByteArraySerializer.class.getName());
    props.put("value.serializer", ByteArraySerializer.class.getName());
    byte[] payload = new byte[size];
    try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(props)) {
      long next = System.nanoTime();
      while (PRODUCING.get()) {
        if (intervalNanos > 0) {
          next += intervalNanos;
          long wait = next - System.nanoTime();
          if (wait > 0) LockSupport.parkNanos(wait);
        }
        Window window = WINDOW.get();
        long sentAt = System.nanoTime();
        try {
          producer.send(new ProducerRecord<>(topic, payload), (metadata, error) -> {
            Window now = WINDOW.get();
            if (error != null) {
              now.sendErrors.incrementAndGet();
              System.err.println(Instant.now() + " send failed: " + error);
            } else {
              now.acked.incrementAndGet();
              now.ack.record(System.nanoTime() - sentAt);
            }
          });
          window.sent.incrementAndGet();
        } catch (RuntimeException e) {
          window.sendErrors.incrementAndGet();
          System.err.println(Instant.now() + " send refused: " + e);
        }
      }
    }
  }

  static void consume(String bootstrap, String topic, ConsumerRebalanceListener noteAssignments) {
    Properties props = new Properties();
    props.put("bootstrap.servers", bootstrap);
    // a group of this run's own, reading from the end: the producers start once every partition is assigned
    props.put("group.id", "soak-" + topic + "-" + ProcessHandle.current().pid());
    props.put("auto.offset.reset", "latest");
    props.put("key.deserializer", ByteArrayDeserializer.class.getName());
    props.put("value.deserializer", ByteArrayDeserializer.class.getName());
    try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props)) {
      consumer.subscribe(List.of(topic), noteAssignments);
      while (CONSUMING.get()) {
        try {
          var records = consumer.poll(Duration.ofMillis(200));
          long now = System.currentTimeMillis();
          Window window = WINDOW.get();
          for (ConsumerRecord<byte[], byte[]> record : records) {
            window.consumed.incrementAndGet();
            window.endToEnd.record((now - record.timestamp()) * 1_000_000L);
          }
        } catch (RuntimeException e) {
          WINDOW.get().pollErrors.incrementAndGet();
          System.err.println(Instant.now() + " poll failed: " + e);
        }
      }
    }
  }
}
