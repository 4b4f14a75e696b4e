import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Produces one record every 20 ms to one partition (acks=all, idempotent, retried for up to two
 * minutes) for the given seconds and prints, per acknowledged record, the epoch milliseconds it was
 * sent and acknowledged: the benchmark kills the partition's leader meanwhile and reads the gap.
 * Run as a single-file program on the Kafka 3.7 classpath: java -cp CP FailoverProbe.java BOOTSTRAP TOPIC PARTITION SECONDS
 */
public class FailoverProbe {
    public static void main(String[] args) throws Exception {
        Properties props = new Properties();
        props.put("bootstrap.servers", args[0]);
        props.put("acks", "all");
        props.put("enable.idempotence", "true");
        props.put("linger.ms", "0");
        props.put("delivery.timeout.ms", "120000");
        props.put("request.timeout.ms", "5000");
        props.put("key.serializer", ByteArraySerializer.class.getName());
        props.put("value.serializer", ByteArraySerializer.class.getName());
        String topic = args[1];
        int partition = Integer.parseInt(args[2]);
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(Long.parseLong(args[3]));
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(props)) {
            producer.partitionsFor(topic);
            long next = System.nanoTime();
            while (System.nanoTime() < until) {
                long sentMs = System.currentTimeMillis();
                producer.send(new ProducerRecord<>(topic, partition, null, new byte[100]), (metadata, error) -> {
                    if (error == null) {
                        System.out.println(sentMs + " " + System.currentTimeMillis());
                    } else {
                        System.out.println(sentMs + " failed " + error.getClass().getSimpleName());
                    }
                });
                next += TimeUnit.MILLISECONDS.toNanos(20);
                TimeUnit.NANOSECONDS.sleep(Math.max(0, next - System.nanoTime())); // the probe's send rate, not a wait
            }
            producer.flush();
        }
    }
}
