import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * ProducerPerformance with several producers in one JVM (issue 15's "1 and 8 producers"): the same arguments
 * (--topic, --num-records, --record-size, --throughput -1, --producer-props k=v...) preceded by the producer
 * count; the records are split evenly over that many KafkaProducer instances, each on its own thread, and the
 * final line has ProducerPerformance's format (the harness parses it). One JVM, so eight producers cost eight
 * connections and eight buffers, not eight JVM start-ups on a 2-core machine.
 *   java -cp CLASSPATH bench/ParallelProducers.java PRODUCERS --topic T --num-records N --record-size S ...
 * Latency is send() to acknowledgement per record, as ProducerPerformance measures it; as it does, a line per
 * 5-second window too, so a run cut by the harness's time cap still reports its rate.
 */
public class ParallelProducers {
  public static void main(String[] args) throws Exception {
    int producers = Integer.parseInt(args[0]);
    String topic = null;
    long records = 0;
    int size = 0;
    Properties props = new Properties();
    for (int i = 1; i < args.length; i++) {
      switch (args[i]) {
        case "--topic" -> topic = args[++i];
        case "--num-records" -> records = Long.parseLong(args[++i]);
        case "--record-size" -> size = Integer.parseInt(args[++i]);
        case "--throughput" -> {
          if (Integer.parseInt(args[++i]) != -1) throw new IllegalArgumentException("only --throughput -1");
        }
        case "--producer-props" -> {
          while (i + 1 < args.length && args[i + 1].contains("=")) {
            String[] kv = args[++i].split("=", 2);
            props.put(kv[0], kv[1]);
          }
        }
        default -> throw new IllegalArgumentException("unknown argument " + args[i]);
      }
    }
    props.put("key.serializer", ByteArraySerializer.class.getName());
    props.put("value.serializer", ByteArraySerializer.class.getName());

    byte[] payload = new byte[size];
    Arrays.fill(payload, (byte) 'x');
    int[][] latencies = new int[producers][];
    AtomicLong errors = new AtomicLong();
    Window window = new Window();
    List<Thread> threads = new ArrayList<>();
    long start = System.nanoTime();
    for (int p = 0; p < producers; p++) {
      int share = (int) (records / producers + (p < records % producers ? 1 : 0));
      int[] lat = latencies[p] = new int[share];
      String t = topic;
      Thread thread = new Thread(() -> {
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(props)) {
          for (int r = 0; r < share; r++) {
            int index = r;
            long sent = System.nanoTime();
            producer.send(new ProducerRecord<>(t, payload), (md, e) -> {
              if (e != null) errors.incrementAndGet();
              lat[index] = (int) ((System.nanoTime() - sent) / 1_000_000);
              window.acked(lat[index]);
            });
          }
          producer.flush();
        }
      }, "producer-" + p);
      thread.start();
      threads.add(thread);
    }
    ScheduledExecutorService reporter = Executors.newSingleThreadScheduledExecutor();
    reporter.scheduleAtFixedRate(() -> window.print(payload.length), 5, 5, TimeUnit.SECONDS);
    for (Thread thread : threads) thread.join();
    reporter.shutdownNow();
    double seconds = (System.nanoTime() - start) / 1e9;

    int[] all = Arrays.stream(latencies).flatMapToInt(Arrays::stream).sorted().toArray();
    double avg = Arrays.stream(all).average().orElse(0);
    System.out.printf("%d records sent, %.1f records/sec (%.2f MB/sec), %.2f ms avg latency, %.2f ms max latency, "
            + "%d ms 50th, %d ms 95th, %d ms 99th, %d ms 99.9th.%n",
        all.length, all.length / seconds, all.length * (double) size / seconds / (1024 * 1024), avg,
        (double) all[all.length - 1], pct(all, 0.5), pct(all, 0.95), pct(all, 0.99), pct(all, 0.999));
    System.out.printf("producers=%d errors=%d%n", producers, errors.get());
    if (errors.get() > 0) System.exit(1);
  }

  /** Acknowledgements since the last window line (ProducerPerformance's format). */
  private static final class Window {
    private long count;
    private long latencySum;
    private long latencyMax;
    private long since = System.nanoTime();

    synchronized void acked(int latencyMs) {
      count++;
      latencySum += latencyMs;
      latencyMax = Math.max(latencyMax, latencyMs);
    }

    synchronized void print(int size) {
      long now = System.nanoTime();
      double seconds = (now - since) / 1e9;
      System.out.printf("%d records sent, %.1f records/sec (%.2f MB/sec), %.1f ms avg latency, %.1f ms max latency.%n",
          count, count / seconds, count * (double) size / seconds / (1024 * 1024),
          count == 0 ? 0.0 : latencySum / (double) count, (double) latencyMax);
      count = 0;
      latencySum = 0;
      latencyMax = 0;
      since = now;
    }
  }

  private static int pct(int[] sorted, double q) {
    return sorted[Math.min(sorted.length - 1, (int) (q * sorted.length))];
  }
}
