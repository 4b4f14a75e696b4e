package io.kaas.adapter.wire.mapping;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.domain.error.KafkaError;
import java.util.Arrays;
import java.util.UUID;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.protocol.Errors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The domain's error enum must speak exactly Apache's codes: same name, same number, for every
 * constant. The domain cannot depend on kafka-clients, so this adapter test is where it is checked.
 */
class KafkaErrorTest {

    @ParameterizedTest(name = "{0}")
    @EnumSource(KafkaError.class)
    void hasTheNameAndCodeOfApachesError(KafkaError error) {
        Errors apache = Errors.forCode(error.code());

        assertThat(apache.name()).as("Apache's name for code %d", error.code()).isEqualTo(error.name());
        assertThat(apache.code()).isEqualTo(error.code());
        assertThat(Errors.valueOf(error.name()).code()).as("Apache's code for %s", error.name()).isEqualTo(error.code());
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(KafkaError.class)
    void mapsToApachesErrorAndBack(KafkaError error) {
        assertThat(ErrorMapping.toErrors(error).name()).isEqualTo(error.name());
        assertThat(KafkaError.forCode(error.code())).isSameAs(error);
    }

    @Test
    void codesAreUnique() {
        assertThat(Arrays.stream(KafkaError.values()).map(KafkaError::code)).doesNotHaveDuplicates();
    }

    @Test
    void anUnknownCodeReadsAsUnknownServerError() {
        assertThat(KafkaError.forCode((short) 32_000)).isSameAs(KafkaError.UNKNOWN_SERVER_ERROR);
    }

    @Test
    void topicIdsRoundTrip() {
        UUID id = UUID.fromString("6ba7b810-9dad-41d1-80b4-00c04fd430c8");

        Uuid wire = TopicIdMapping.toWire(id);

        assertThat(wire.getMostSignificantBits()).isEqualTo(id.getMostSignificantBits());
        assertThat(wire.getLeastSignificantBits()).isEqualTo(id.getLeastSignificantBits());
        assertThat(TopicIdMapping.fromWire(wire)).isEqualTo(id);
        assertThat(TopicIdMapping.toWire(null)).isEqualTo(Uuid.ZERO_UUID);
    }
}
