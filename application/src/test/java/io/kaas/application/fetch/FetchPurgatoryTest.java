package io.kaas.application.fetch;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.application.log.AppendListener.Append;
import io.kaas.domain.log.LogOffsets;
import io.kaas.domain.topic.TopicPartition;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class FetchPurgatoryTest {
    private static final TopicPartition A = new TopicPartition("t", 0);
    private static final TopicPartition B = new TopicPartition("t", 1);

    private final FetchPurgatory purgatory = new FetchPurgatory();
    private final List<String> rechecked = new ArrayList<>();

    /** A waiter that notes its name for every append or deletion it hears of. */
    private FetchPurgatory.Waiter waiter(String name) {
        return new FetchPurgatory.Waiter() {
            @Override
            public void onAppend(Append append) {
                rechecked.add(name);
            }

            @Override
            public void onGone(TopicPartition partition) {
                rechecked.add(name + " gone");
            }
        };
    }

    private static Append appendTo(TopicPartition tp) {
        return new Append(tp, 0, 100, new LogOffsets(0, 1, 1));
    }

    @Test
    void anAppendRechecksTheFetchesParkedOnThatPartitionOnly() {
        purgatory.park(waiter("on A"), List.of(A));
        purgatory.park(waiter("on B"), List.of(B));

        purgatory.onAppend(appendTo(A));

        assertThat(rechecked).containsExactly("on A");
    }

    @Test
    void countsAFetchParkedOnSeveralPartitionsOnce() {
        FetchPurgatory.Waiter waiter = waiter("w");
        purgatory.park(waiter, List.of(A, B));
        assertThat(purgatory.size()).isOne();

        purgatory.unpark(waiter, List.of(A, B));

        assertThat(purgatory.size()).isZero();
        purgatory.onAppend(appendTo(A));
        assertThat(rechecked).isEmpty();
    }

    @Test
    void unparkingOneWaiterLeavesTheOthers() {
        FetchPurgatory.Waiter first = waiter("first");
        purgatory.park(first, List.of(A));
        purgatory.park(waiter("second"), List.of(A));

        purgatory.unpark(first, List.of(A));
        purgatory.onAppend(appendTo(A));

        assertThat(rechecked).containsExactly("second");
        assertThat(purgatory.size()).isOne();
    }

    @Test
    void aGonePartitionTellsTheFetchesParkedOnIt() {
        purgatory.park(waiter("on A"), List.of(A));
        purgatory.park(waiter("on B"), List.of(B));

        purgatory.onGone(B);

        assertThat(rechecked).containsExactly("on B gone");
    }
}
