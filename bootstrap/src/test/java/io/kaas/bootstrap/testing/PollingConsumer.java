package io.kaas.bootstrap.testing;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;

/**
 * A KafkaConsumer polling on its own thread, as an application would: it stays in its group
 * (rejoining on rebalances) while the test watches its assignment and records. Work that must run
 * on the consumer's thread (commitSync, committed) goes through {@link #call}. Made by
 * {@link EmbeddedKaas#groupMember}.
 */
public final class PollingConsumer implements AutoCloseable {
    private final KafkaConsumer<byte[], byte[]> consumer;
    private final Thread thread;
    private final ConcurrentLinkedQueue<Runnable> tasks = new ConcurrentLinkedQueue<>();
    private final List<ConsumerRecord<byte[], byte[]>> records = new CopyOnWriteArrayList<>();
    private volatile Set<TopicPartition> assignment = Set.of();
    private volatile int generation = -1;
    private volatile String memberId = "";
    private volatile Throwable failure;
    private volatile boolean running = true;

    PollingConsumer(Map<String, Object> config, List<String> topics) {
        consumer = new KafkaConsumer<>(config);
        thread = new Thread(() -> run(topics), "consumer-" + config.get(ConsumerConfig.GROUP_ID_CONFIG));
        thread.setDaemon(true);
        thread.start();
    }

    private void run(List<String> topics) {
        try {
            consumer.subscribe(topics);
            while (running) {
                Runnable task;
                while ((task = tasks.poll()) != null) {
                    task.run();
                }
                try {
                    consumer.poll(Duration.ofMillis(50)).forEach(records::add);
                } catch (WakeupException e) {
                    continue; // woken up to run a task or to stop
                }
                assignment = Set.copyOf(consumer.assignment());
                generation = consumer.groupMetadata().generationId();
                memberId = consumer.groupMetadata().memberId();
            }
        } catch (RuntimeException e) {
            failure = e;
        } finally {
            try {
                consumer.close(Duration.ofSeconds(5));
            } catch (RuntimeException e) {
                failure = failure != null ? failure : e; // a late wakeup may interrupt the leave
            }
        }
    }

    /**
     * Runs {@code work} on the consumer's thread (at its next poll, within 50 ms) and waits for its
     * result. No wakeup: it would hit the work's own blocking calls.
     */
    public <T> T call(Function<KafkaConsumer<byte[], byte[]>, T> work) {
        CompletableFuture<T> result = new CompletableFuture<>();
        tasks.add(() -> {
            try {
                result.complete(work.apply(consumer));
            } catch (RuntimeException e) {
                result.completeExceptionally(e);
            }
        });
        try {
            return result.get(30, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
        } catch (InterruptedException | TimeoutException e) {
            throw new IllegalStateException(e);
        }
    }

    /** commitSync of {@code offsets}, on the consumer's thread. */
    public void commitSync(Map<TopicPartition, OffsetAndMetadata> offsets) {
        call(c -> {
            c.commitSync(offsets);
            return null;
        });
    }

    /** commitSync of the positions consumed so far, on the consumer's thread. */
    public void commitSync() {
        call(c -> {
            c.commitSync();
            return null;
        });
    }

    public Set<TopicPartition> assignment() {
        return assignment;
    }

    public int generation() {
        return generation;
    }

    public String memberId() {
        return memberId;
    }

    public List<ConsumerRecord<byte[], byte[]>> records() {
        return new ArrayList<>(records);
    }

    /** What stopped the poll loop, if it failed. */
    public Throwable failure() {
        return failure;
    }

    /**
     * Leaves the group (a dynamic member sends LeaveGroup; a static one does not) and stops; a no-op
     * once done, as the fixture closes every member again after the test.
     */
    @Override
    public void close() {
        if (!running) {
            return;
        }
        running = false;
        consumer.wakeup();
        try {
            thread.join(TimeUnit.SECONDS.toMillis(15));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
