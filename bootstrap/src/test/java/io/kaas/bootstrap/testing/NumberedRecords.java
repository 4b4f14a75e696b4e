package io.kaas.bootstrap.testing;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * Records {@code record-0}, {@code record-1}, ... produced to one partition while something happens to it, and read
 * back: a consumer that saw each once, in order, read {@link #expected} of what was acknowledged.
 */
public final class NumberedRecords {
    private NumberedRecords() {
    }

    /**
     * Produces numbered records, acknowledged 20 at a time, until told to stop; counts the acknowledged ones. Closes
     * the producer.
     */
    public static void produceUntilStopped(KafkaProducer<byte[], byte[]> producer, String topic, int partition,
                                           AtomicInteger produced, AtomicBoolean stop,
                                           AtomicReference<Throwable> failure) {
        try (producer) {
            int sent = 0;
            for (int i = 0; !stop.get(); i++) {
                sent = i + 1;
                producer.send(new ProducerRecord<>(topic, partition, null,
                        ("record-" + i).getBytes(StandardCharsets.UTF_8)), (metadata, e) -> {
                            if (e != null) {
                                failure.compareAndSet(null, e);
                            }
                        });
                if (i % 20 == 19) {
                    producer.flush();
                    produced.set(sent);
                }
            }
            producer.flush();
            produced.set(sent);
        } catch (RuntimeException e) {
            failure.compareAndSet(null, e);
        }
    }

    /** Polls once, keeping the values; true so it can sit in an awaitility condition. */
    public static boolean poll(KafkaConsumer<byte[], byte[]> consumer, List<String> into) {
        for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(100))) {
            into.add(new String(record.value(), StandardCharsets.UTF_8));
        }
        return true;
    }

    /** The values of the first {@code total} numbered records. */
    public static List<String> expected(int total) {
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < total; i++) {
            expected.add("record-" + i);
        }
        return expected;
    }
}
