package io.kaas.domain.group;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

class ConsumerSubscriptionTest {

    @Test
    void readsTheTopicsOfAnyVersion() {
        byte[] v0 = GroupTestContext.subscription("orders", "payments");
        assertThat(ConsumerSubscription.topics(v0)).hasValueSatisfying(t -> assertThat(t).containsExactly("orders", "payments"));

        byte[] v3 = v0.clone();
        ByteBuffer.wrap(v3).putShort((short) 3); // later versions only append fields
        assertThat(ConsumerSubscription.topics(v3)).hasValueSatisfying(t -> assertThat(t).containsExactly("orders", "payments"));
    }

    @Test
    void refusesWhatIsNotASubscription() {
        assertThat(ConsumerSubscription.topics(new byte[0])).isEmpty();
        assertThat(ConsumerSubscription.topics(new byte[] {0, 0, 0, 0, 0, 5, 0, 3, 'a'})).isEmpty();
        assertThat(ConsumerSubscription.topics(new byte[] {0, 0, -1, -1, -1, -1})).isEmpty();
    }
}
