package io.kaas.application.log;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class AppendOnlyListTest {

    @Test
    void startsEmpty() {
        assertThat(new AppendOnlyList<String>().size()).isZero();
    }

    @Test
    void keepsEveryElementAcrossChunkBoundaries() {
        AppendOnlyList<Integer> list = new AppendOnlyList<>();
        int n = 5 * 1024 + 3; // several chunks, and more than one growth of the chunk table

        for (int i = 0; i < n; i++) {
            list.add(i);
            assertThat(list.size()).isEqualTo(i + 1);
        }

        for (int i = 0; i < n; i++) {
            assertThat(list.get(i)).isEqualTo(i);
        }
        assertThat(list.get(1023)).isEqualTo(1023);
        assertThat(list.get(1024)).isEqualTo(1024);
        assertThat(list.get(4096)).isEqualTo(4096);
    }
}
