package io.kaas.domain.batch;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SequencesTest {

    @Test
    void incrementsWithoutWrapping() {
        assertThat(Sequences.increment(0, 0)).isZero();
        assertThat(Sequences.increment(10, 5)).isEqualTo(15);
        assertThat(Sequences.increment(Integer.MAX_VALUE - 5, 5)).isEqualTo(Integer.MAX_VALUE);
    }

    @Test
    void wrapsFromIntegerMaxValueToZero() {
        assertThat(Sequences.increment(Integer.MAX_VALUE, 1)).isZero();
        assertThat(Sequences.increment(Integer.MAX_VALUE, 3)).isEqualTo(2);
        assertThat(Sequences.increment(Integer.MAX_VALUE - 1, 3)).isEqualTo(1);
    }

    @Test
    void followsOnlyTheDirectSuccessor() {
        assertThat(Sequences.follows(4, 5)).isTrue();
        assertThat(Sequences.follows(-1, 0)).as("first sequence after none").isTrue();
        assertThat(Sequences.follows(Integer.MAX_VALUE, 0)).isTrue();
        assertThat(Sequences.follows(4, 4)).isFalse();
        assertThat(Sequences.follows(4, 6)).isFalse();
        assertThat(Sequences.follows(5, 4)).isFalse();
        assertThat(Sequences.follows(Integer.MAX_VALUE, Integer.MIN_VALUE)).as("no int overflow").isFalse();
    }
}
