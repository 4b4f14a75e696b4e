package io.kaas.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ScramNoncesTest {

    @Test
    void noncesArePrintableCommaFreeAndNeverRepeat() {
        ScramNonces nonces = new ScramNonces();
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < 1000; i++) {
            String nonce = nonces.get();
            assertThat(nonce).matches("[0-9a-z]{10,26}");
            assertThat(seen.add(nonce)).as("fresh").isTrue();
        }
    }
}
