package io.kaas.adapter.wire.mapping;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.domain.error.KafkaError;
import org.apache.kafka.common.protocol.Errors;
import org.junit.jupiter.api.Test;

/** The domain's error codes are Apache 3.7's: same names, same numbers. */
class KafkaErrorMappingTest {

    @Test
    void everyDomainErrorIsApachesErrorOfTheSameName() {
        for (KafkaError error : KafkaError.values()) {
            Errors apache = ErrorMapping.toErrors(error);
            assertThat(apache.name()).as(error.name()).isEqualTo(error.name());
            assertThat(apache.code()).isEqualTo(error.code());
        }
    }
}
