package io.kaas.domain.log;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.domain.error.KafkaError;
import org.junit.jupiter.api.Test;

class LeaderEpochCheckTest {
    @Test
    void anOlderEpochIsFencedANewerOneUnknownAndNoneIsNotChecked() {
        assertThat(LeaderEpochCheck.check(LeaderEpochCheck.NO_EPOCH, 7)).isEqualTo(KafkaError.NONE);
        assertThat(LeaderEpochCheck.check(7, 7)).isEqualTo(KafkaError.NONE);
        assertThat(LeaderEpochCheck.check(6, 7)).isEqualTo(KafkaError.FENCED_LEADER_EPOCH);
        assertThat(LeaderEpochCheck.check(8, 7)).isEqualTo(KafkaError.UNKNOWN_LEADER_EPOCH);
    }
}
