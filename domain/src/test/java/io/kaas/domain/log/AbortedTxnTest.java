package io.kaas.domain.log;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.List;
import org.junit.jupiter.api.Test;

class AbortedTxnTest {

    @Test
    void entriesAreApachesThirtyFourBytesAndReadBack() {
        AbortedTxn a = new AbortedTxn(5L, 10L, 20L, 11L);
        AbortedTxn b = new AbortedTxn(6L, 15L, 30L, 31L);
        ByteBuffer file = ByteBuffer.allocate(2 * AbortedTxn.SIZE + 7); // plus a torn tail
        a.writeTo(file);
        b.writeTo(file);
        file.put(new byte[7]).flip();

        assertThat(a.toBytes().remaining()).isEqualTo(34);
        assertThat(a.toBytes().getShort(0)).as("version").isZero();
        assertThat(AbortedTxn.readAll(file)).containsExactly(a, b);
    }

    @Test
    void anUnknownVersionEndsTheList() {
        ByteBuffer file = ByteBuffer.allocate(2 * AbortedTxn.SIZE);
        new AbortedTxn(1, 2, 3, 4).writeTo(file);
        file.putShort((short) 9).position(file.capacity()).flip();

        assertThat(AbortedTxn.readAll(file)).hasSize(1);
    }

    @Test
    void overlapsTheFetchedRangeLikeApache() {
        AbortedTxn txn = new AbortedTxn(1L, 10L, 20L, 21L);

        assertThat(List.of(txn.overlaps(0, 10), txn.overlaps(0, 11), txn.overlaps(20, 30), txn.overlaps(21, 30)))
                .containsExactly(false, true, true, false);
    }
}
