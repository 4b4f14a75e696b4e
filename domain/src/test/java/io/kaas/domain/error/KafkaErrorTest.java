package io.kaas.domain.error;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class KafkaErrorTest {

    @ParameterizedTest
    @EnumSource(KafkaError.class)
    void forCodeFindsEveryConstantByItsCode(KafkaError error) {
        assertThat(KafkaError.forCode(error.code())).isSameAs(error);
    }

    @Test
    void codesAreUnique() {
        assertThat(Arrays.stream(KafkaError.values()).map(KafkaError::code)).doesNotHaveDuplicates();
    }

    @Test
    void spotChecksAgainstApacheNumbering() {
        assertThat(KafkaError.NONE.code()).isZero();
        assertThat(KafkaError.UNKNOWN_SERVER_ERROR.code()).isEqualTo((short) -1);
        assertThat(KafkaError.CORRUPT_MESSAGE.code()).isEqualTo((short) 2);
        assertThat(KafkaError.OUT_OF_ORDER_SEQUENCE_NUMBER.code()).isEqualTo((short) 45);
        assertThat(KafkaError.INVALID_PRODUCER_EPOCH.code()).isEqualTo((short) 47);
        assertThat(KafkaError.INVALID_TXN_STATE.code()).isEqualTo((short) 48);
        assertThat(KafkaError.INVALID_RECORD.code()).isEqualTo((short) 87);
    }

    @Test
    void unknownCodesReadAsUnknownServerError() {
        assertThat(KafkaError.forCode((short) 9999)).isEqualTo(KafkaError.UNKNOWN_SERVER_ERROR);
        assertThat(KafkaError.forCode((short) -2)).isEqualTo(KafkaError.UNKNOWN_SERVER_ERROR);
        assertThat(KafkaError.forCode((short) 8)).as("a gap in the list").isEqualTo(KafkaError.UNKNOWN_SERVER_ERROR);
    }
}
