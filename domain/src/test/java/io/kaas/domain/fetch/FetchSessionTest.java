package io.kaas.domain.fetch;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.requests.FetchMetadata;
import org.junit.jupiter.api.Test;

class FetchSessionTest {
    private static final SessionKey P0 = SessionKey.byName("t", 0);
    private static final SessionKey P1 = SessionKey.byName("t", 1);
    private static final SessionKey P2 = SessionKey.byName("t", 2);

    private static FetchSession<String> session(SessionKey... keys) {
        FetchSession<String> session = new FetchSession<>(42, false, 0);
        for (SessionKey key : keys) {
            session.add(new CachedPartition<>(key, "at 0", 10, 10, 0));
        }
        return session;
    }

    private static List<SessionKey> order(FetchSession<String> session) {
        return session.partitions().stream().map(CachedPartition::key).toList();
    }

    @Test
    void epochsFollowApachesSequence() {
        for (int epoch : new int[] {-1, 0, 1, 2, 1000, Integer.MAX_VALUE - 1, Integer.MAX_VALUE}) {
            assertThat(FetchSessionEpoch.next(epoch)).as("after %d", epoch).isEqualTo(FetchMetadata.nextEpoch(epoch));
        }
        assertThat(FetchSessionEpoch.isFull(FetchMetadata.INITIAL_EPOCH)).isTrue();
        assertThat(FetchSessionEpoch.isFull(FetchMetadata.FINAL_EPOCH)).isTrue();
        assertThat(FetchSessionEpoch.isFull(1)).isFalse();
    }

    @Test
    void aNewSessionExpectsEpochOneAndEachIncrementalFetchAdvancesIt() {
        FetchSession<String> session = session(P0);
        assertThat(session.epoch()).isEqualTo(1);

        session.update(Map.of(), List.of());

        assertThat(session.epoch()).isEqualTo(2);
    }

    @Test
    void anIncrementalFetchAddsUpdatesAndForgetsPartitions() {
        FetchSession<String> session = session(P0, P1);
        Map<SessionKey, String> requested = new LinkedHashMap<>();
        requested.put(P1, "at 7");
        requested.put(P2, "at 3");

        session.update(requested, List.of(P0));

        assertThat(order(session)).containsExactly(P1, P2);
        assertThat(session.partitions().get(0).request()).isEqualTo("at 7");
        assertThat(session.partitions().get(1).request()).isEqualTo("at 3");
    }

    @Test
    void aPartitionThatReturnedRecordsIsReadLast() {
        FetchSession<String> session = session(P0, P1, P2);

        session.sendToBack(session.partitions().get(0));

        assertThat(order(session)).containsExactly(P1, P2, P0);
    }

    @Test
    void anIncrementalAnswerCarriesOnlyWhatChanged() {
        CachedPartition<String> p = session(P0).partitions().get(0); // answered with hw 10, lso 10, log start 0

        assertThat(p.mustRespond(false, false, 10, 10, 0)).as("nothing new").isFalse();
        assertThat(p.mustRespond(true, false, 10, 10, 0)).as("records").isTrue();
        assertThat(p.mustRespond(false, false, 11, 10, 0)).as("high watermark moved").isTrue();
        assertThat(p.mustRespond(false, false, 11, 10, 0)).as("and is now known").isFalse();
        assertThat(p.mustRespond(false, false, 11, 11, 0)).as("last stable offset moved").isTrue();
        assertThat(p.mustRespond(false, false, 11, 11, 5)).as("log start moved").isTrue();
        assertThat(p.mustRespond(false, true, -1, -1, -1)).as("an error").isTrue();
        assertThat(p.mustRespond(false, false, 11, 11, 5))
                .as("the error gone, answered again though its offsets are those answered before the error").isTrue();
        assertThat(p.mustRespond(false, false, 11, 11, 5)).isFalse();
    }

    @Test
    void aPartitionAddedByAnIncrementalFetchIsAnsweredTheFirstTimeEvenIfEmpty() {
        FetchSession<String> session = session(P0);
        session.update(Map.of(P1, "at 0"), List.of());
        CachedPartition<String> added = session.partitions().get(1);

        assertThat(added.mustRespond(false, false, 0, 0, 0)).isTrue();
        assertThat(added.mustRespond(false, false, 0, 0, 0)).isFalse();
    }
}
