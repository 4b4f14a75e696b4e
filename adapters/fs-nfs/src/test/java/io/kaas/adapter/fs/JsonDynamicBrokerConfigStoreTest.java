package io.kaas.adapter.fs;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JsonDynamicBrokerConfigStoreTest {
    @TempDir
    Path dir;

    private JsonDynamicBrokerConfigStore store() {
        return new JsonDynamicBrokerConfigStore(new DataLayout(dir), new JsonFiles(new NioFilesystem(), new JacksonCodec()));
    }

    @Test
    void theClusterDefaultAndEachBrokerAreKeptApartAndSurviveAReopen() throws Exception {
        assertThat(store().load()).isEmpty();

        store().save("", Map.of("log.retention.ms", "2222222"));
        store().save("0", Map.of("sasl.kerberos.min.time.before.relogin", "70000"));
        store().save("1", Map.of("message.max.bytes", "2000000"));
        store().save("1", Map.of());

        assertThat(store().load()).isEqualTo(Map.of("", Map.of("log.retention.ms", "2222222"),
                "0", Map.of("sasl.kerberos.min.time.before.relogin", "70000")));
        String json = Files.readString(dir.resolve("__cluster/broker-configs.json"), StandardCharsets.UTF_8)
                .replaceAll("\\s", "");
        assertThat(json).isEqualTo("{\"version\":1,\"defaults\":{\"log.retention.ms\":\"2222222\"},"
                + "\"brokers\":{\"0\":{\"sasl.kerberos.min.time.before.relogin\":\"70000\"}}}");
    }
}
