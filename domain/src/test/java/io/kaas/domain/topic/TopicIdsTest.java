package io.kaas.domain.topic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class TopicIdsTest {

    @Test
    void reservedIdsAreNotUsable() {
        assertThat(TopicIds.isUsable(new UUID(0L, 0L))).isFalse();
        assertThat(TopicIds.isUsable(new UUID(0L, 1L))).isFalse();
    }

    @Test
    void idsWhoseTextStartsWithADashAreNotUsable() {
        UUID dash = new UUID(62L << 58 | 0x1234L, 99L);
        assertThat(TopicIds.toBase64(dash)).startsWith("-");
        assertThat(TopicIds.isUsable(dash)).isFalse();

        UUID underscore = new UUID(63L << 58, 99L);
        assertThat(TopicIds.toBase64(underscore)).startsWith("_");
        assertThat(TopicIds.isUsable(underscore)).isTrue();
    }

    @Test
    void usableMatchesTheTextRuleForRandomIds() {
        Random random = new Random(7);
        for (int i = 0; i < 2_000; i++) {
            UUID id = new UUID(random.nextLong(), random.nextLong());
            assertThat(TopicIds.isUsable(id)).as("%s", id).isEqualTo(!TopicIds.toBase64(id).startsWith("-"));
        }
    }

    @Test
    void base64RoundTripsIn22UrlSafeCharacters() {
        UUID id = UUID.fromString("f81d4fae-7dec-11d0-a765-00a0c91e6bf6");
        String text = TopicIds.toBase64(id);

        assertThat(text).hasSize(22).matches("[A-Za-z0-9_-]+");
        assertThat(text).isEqualTo("-B1Prn3sEdCnZQCgyR5r9g"); // Apache's Uuid.toString of the same bits
        assertThat(TopicIds.fromBase64(text)).isEqualTo(id);
        assertThat(TopicIds.toBase64(new UUID(0L, 1L))).isEqualTo("AAAAAAAAAAAAAAAAAAAAAQ");
    }

    @Test
    void fromBase64RejectsTextThatIsNotSixteenBytes() {
        assertThatThrownBy(() -> TopicIds.fromBase64("AAAA")).isInstanceOf(IllegalArgumentException.class);
    }
}
