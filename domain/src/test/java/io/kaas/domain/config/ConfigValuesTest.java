package io.kaas.domain.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kaas.domain.error.KafkaError;
import io.kaas.domain.error.KafkaException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Parsing and formatting by Apache's ConfigDef rules, with its wording on failure. */
class ConfigValuesTest {

    @Test
    void numbersAreTrimmedAndParsedByType() {
        assertThat(ConfigValues.parse("k", ConfigType.LONG, " 42 ")).isEqualTo(42L);
        assertThat(ConfigValues.parse("k", ConfigType.INT, "-7")).isEqualTo(-7);
        assertThat(ConfigValues.parse("k", ConfigType.DOUBLE, "0.25")).isEqualTo(0.25);
    }

    @Test
    void anUnparseableNumberNamesTheTypeAsApacheDoes() {
        assertInvalid(ConfigType.LONG, "ten", "Invalid value ten for configuration k: Not a number of type LONG");
        assertInvalid(ConfigType.INT, "3000000000", "Invalid value 3000000000 for configuration k: Not a number of type INT");
        assertInvalid(ConfigType.DOUBLE, "half", "Invalid value half for configuration k: Not a number of type DOUBLE");
    }

    @Test
    void booleansIgnoreCaseAndNothingElseIsABoolean() {
        assertThat(ConfigValues.parse("k", ConfigType.BOOLEAN, "TRUE")).isEqualTo(true);
        assertThat(ConfigValues.parse("k", ConfigType.BOOLEAN, " false")).isEqualTo(false);
        assertInvalid(ConfigType.BOOLEAN, "yes", "Invalid value yes for configuration k: Expected value to be either true or false");
    }

    @Test
    void listsSplitOnCommasWithWhitespaceAndAnEmptyValueIsAnEmptyList() {
        assertThat(ConfigValues.parse("k", ConfigType.LIST, " compact , delete")).isEqualTo(List.of("compact", "delete"));
        assertThat(ConfigValues.parse("k", ConfigType.LIST, "  ")).isEqualTo(List.of());
        assertThat(ConfigValues.normalize("k", ConfigType.LIST, "a ,b")).isEqualTo("a,b");
    }

    @Test
    void formattingIsTheCanonicalText() {
        assertThat(ConfigValues.format(List.of("a", "b"))).isEqualTo("a,b");
        assertThat(ConfigValues.format(0.5)).isEqualTo("0.5");
        assertThat(ConfigValues.format(Long.MAX_VALUE)).isEqualTo("9223372036854775807");
        assertThat(ConfigValues.normalize("k", ConfigType.STRING, "  CreateTime ")).isEqualTo("CreateTime");
    }

    @Test
    void listItemsForTheListOperationsDropEmptyOnes() {
        assertThat(ConfigValues.items("a,,b,")).containsExactly("a", "b");
        assertThat(ConfigValues.items("")).isEmpty();
        assertThat(ConfigValues.items(null)).isEmpty();
    }

    private static void assertInvalid(ConfigType type, String raw, String message) {
        assertThatThrownBy(() -> ConfigValues.parse("k", type, raw))
                .isInstanceOfSatisfying(KafkaException.class, e -> assertThat(e.error()).isEqualTo(KafkaError.INVALID_CONFIG))
                .hasMessage(message);
    }
}
