package io.kaas.bootstrap.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.bootstrap.testing.EmbeddedKaas;
import io.kaas.bootstrap.testing.KaasBrokerExtension;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Every transactional and idempotent API answers, per request version, the error code Apache Kafka
 * 3.7.2 answers for a fenced producer, a stale or future epoch, a transaction aborted on timeout, an
 * unknown producer or transactional id and an expired one: {@link TxnErrorCodeProbe} run against kaas
 * gives the table it recorded from Apache ({@code conformance/txn-error-codes-apache-3.7.2.tsv}, which
 * says how to re-record it).
 */
class TxnErrorCodesIT {
    private static final String APACHE_TABLE = "/conformance/txn-error-codes-apache-3.7.2.tsv";

    /**
     * The timeout sweep Apache was recorded with; expirations of 15 s where Apache's were 5 s, so that a loaded
     * machine cannot let an aborted-on-timeout id expire before the probe asks it (the probe waits for expiry).
     */
    @RegisterExtension
    final KaasBrokerExtension kaas = KaasBrokerExtension.create().withEnv(Map.of(
            "KAAS_TRANSACTION_ABORT_INTERVAL_MS", "500",
            "KAAS_TRANSACTIONAL_ID_EXPIRATION_MS", "15000",
            "KAAS_TRANSACTION_EXPIRY_INTERVAL_MS", "500",
            "KAAS_PRODUCER_ID_EXPIRATION_MS", "15000",
            "KAAS_PRODUCER_ID_EXPIRATION_CHECK_INTERVAL_MS", "500"));

    @Test
    void answersApacheErrorCodesForEveryVersionAndSituation(EmbeddedKaas broker) throws IOException {
        List<String> kaasTable = new TxnErrorCodeProbe(broker.host(), broker.port()).run().stream()
                .map(TxnErrorCodeProbe.Row::toString).toList();

        assertThat(String.join("\n", kaasTable)).isEqualTo(String.join("\n", apacheTable()));
    }

    private static List<String> apacheTable() throws IOException {
        try (InputStream in = TxnErrorCodesIT.class.getResourceAsStream(APACHE_TABLE)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines()
                    .filter(line -> !line.isBlank() && !line.startsWith("#")).toList();
        }
    }
}
