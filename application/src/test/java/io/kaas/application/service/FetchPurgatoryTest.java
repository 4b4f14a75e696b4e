package io.kaas.application.service;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.domain.topic.TopicPartition;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class FetchPurgatoryTest {
    private static final TopicPartition A = new TopicPartition("t", 0);
    private static final TopicPartition B = new TopicPartition("t", 1);

    private final FetchPurgatory purgatory = new FetchPurgatory();
    private final List<String> rechecked = new ArrayList<>();

    @Test
    void anAppendRechecksTheFetchesParkedOnThatPartitionOnly() {
        purgatory.park(() -> rechecked.add("on A"), List.of(A));
        purgatory.park(() -> rechecked.add("on B"), List.of(B));

        purgatory.onAppend(A);

        assertThat(rechecked).containsExactly("on A");
    }

    @Test
    void countsAFetchParkedOnSeveralPartitionsOnce() {
        FetchPurgatory.Waiter waiter = () -> rechecked.add("w");
        purgatory.park(waiter, List.of(A, B));
        assertThat(purgatory.size()).isOne();

        purgatory.unpark(waiter, List.of(A, B));

        assertThat(purgatory.size()).isZero();
        purgatory.onAppend(A);
        assertThat(rechecked).isEmpty();
    }

    @Test
    void unparkingOneWaiterLeavesTheOthers() {
        FetchPurgatory.Waiter first = () -> rechecked.add("first");
        purgatory.park(first, List.of(A));
        purgatory.park(() -> rechecked.add("second"), List.of(A));

        purgatory.unpark(first, List.of(A));
        purgatory.onAppend(A);

        assertThat(rechecked).containsExactly("second");
        assertThat(purgatory.size()).isOne();
    }
}
