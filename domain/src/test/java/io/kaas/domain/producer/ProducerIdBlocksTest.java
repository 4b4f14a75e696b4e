package io.kaas.domain.producer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ProducerIdBlocksTest {
    private static final long SPACE = 1L << 40;

    /** Persists (here: just remembers) a block end whenever the allocator runs dry, as the service does. */
    private static long nextId(ProducerIdBlocks blocks, long[] persisted) {
        OptionalLong id = blocks.next();
        if (id.isEmpty()) {
            persisted[0] = blocks.nextBlockEnd();
            blocks.blockPersisted(persisted[0]);
            id = blocks.next();
        }
        return id.getAsLong();
    }

    @Test
    void handsOutNothingUntilABlockIsPersisted() {
        ProducerIdBlocks blocks = new ProducerIdBlocks(0, 0);
        assertThat(blocks.next()).isEmpty();
        assertThat(blocks.nextBlockEnd()).isEqualTo(1000);
        assertThat(blocks.next()).as("asking for the end does not open the block").isEmpty();
    }

    @Test
    void idsFollowTheBrokerPartitionedFormulaInBlocksOfAThousand() {
        ProducerIdBlocks blocks = new ProducerIdBlocks(3, 0);
        blocks.blockPersisted(1000);

        List<Long> ids = new ArrayList<>();
        for (OptionalLong id = blocks.next(); id.isPresent(); id = blocks.next()) {
            ids.add(id.getAsLong());
        }

        assertThat(ids).hasSize(ProducerIdBlocks.BLOCK_SIZE);
        assertThat(ids.get(0)).isEqualTo(4 * SPACE);
        assertThat(ids.get(999)).isEqualTo(4 * SPACE + 999);
        assertThat(blocks.nextBlockEnd()).isEqualTo(2000);
        blocks.blockPersisted(2000);
        assertThat(blocks.next()).hasValue(4 * SPACE + 1000);
    }

    @Test
    void brokerZeroStaysClearOfLowIds() {
        ProducerIdBlocks blocks = new ProducerIdBlocks(0, 0);
        blocks.blockPersisted(1000);
        assertThat(blocks.next()).hasValue(SPACE);
    }

    @Test
    void aRestartNeverReissuesAnIdHandedOutBefore() {
        long[] persisted = {0};
        ProducerIdBlocks first = new ProducerIdBlocks(1, persisted[0]);
        Set<Long> issued = new HashSet<>();
        for (int i = 0; i < 1500; i++) {
            issued.add(nextId(first, persisted));
        }
        assertThat(persisted[0]).isEqualTo(2000);

        // Crash mid-block: the new instance knows only the persisted end.
        ProducerIdBlocks second = new ProducerIdBlocks(1, persisted[0]);
        long afterRestart = nextId(second, persisted);

        assertThat(afterRestart).isEqualTo(2 * SPACE + 2000);
        assertThat(issued).doesNotContain(afterRestart).allMatch(id -> id < afterRestart);
        assertThat(persisted[0]).isEqualTo(3000);
    }

    @Test
    void blockPersistedRejectsAnyEndButTheNextOne() {
        ProducerIdBlocks blocks = new ProducerIdBlocks(0, 0);
        assertThatThrownBy(() -> blocks.blockPersisted(2000)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("expected block end 1000");
        assertThatThrownBy(() -> blocks.blockPersisted(0)).isInstanceOf(IllegalArgumentException.class);
        assertThat(blocks.next()).as("a refused end opens nothing").isEmpty();

        blocks.blockPersisted(1000);
        assertThatThrownBy(() -> blocks.blockPersisted(1000)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theLastBlockEndsBelowTheNextBrokersRangeThenTheSpaceIsExhausted() {
        ProducerIdBlocks blocks = new ProducerIdBlocks(5, SPACE - 1000);
        blocks.blockPersisted(blocks.nextBlockEnd());

        long last = -1;
        for (OptionalLong id = blocks.next(); id.isPresent(); id = blocks.next()) {
            last = id.getAsLong();
        }

        assertThat(last).isEqualTo(7 * SPACE - 1);
        assertThatThrownBy(blocks::nextBlockEnd).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("exhausted");
        assertThatThrownBy(() -> new ProducerIdBlocks(5, SPACE).nextBlockEnd()).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void rejectsOutOfRangeArguments() {
        assertThatThrownBy(() -> new ProducerIdBlocks(-1, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new ProducerIdBlocks(0, -1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new ProducerIdBlocks(0, SPACE + 1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theHighestBrokerIdStillYieldsPositiveIds() {
        int max = ProducerIdBlocks.MAX_BROKER_ID;
        ProducerIdBlocks highest = new ProducerIdBlocks(max, SPACE - 1000);
        highest.blockPersisted(SPACE);
        long last = -1;
        for (OptionalLong id = highest.next(); id.isPresent(); id = highest.next()) {
            assertThat(id.getAsLong()).isPositive();
            last = id.getAsLong();
        }
        assertThat(last).isEqualTo(Long.MAX_VALUE);
        assertThatThrownBy(() -> new ProducerIdBlocks(max + 1, 0)).isInstanceOf(IllegalArgumentException.class);
    }
}
