package io.kaas.adapter.fs;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kaas.application.port.in.ClusterUseCase;
import io.kaas.domain.log.LogOffsets;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JacksonCodecTest {
    private final JacksonCodec codec = new JacksonCodec();

    /** Shaped like the engine's manifest: nested records, lists and maps. */
    public record Manifest(int version, List<Segment> segments, Map<String, Long> checkpoints) {
        public record Segment(int epoch, long baseOffset) {
        }
    }

    @Test
    void recordsRoundTrip() throws IOException {
        Manifest manifest = new Manifest(1, List.of(new Manifest.Segment(3, 0), new Manifest.Segment(4, 1200)),
                Map.of("recovery", 1150L));

        byte[] json = codec.encode(manifest);

        assertThat(codec.decode(json, Manifest.class)).isEqualTo(manifest);
        assertThat(new String(json, UTF_8)).contains("\n").contains("\"baseOffset\" : 1200");
    }

    @Test
    void recordsOfTheApplicationRoundTrip() throws IOException {
        ClusterUseCase.Broker broker = new ClusterUseCase.Broker(2, "kaas-2.kaas", 9092);
        LogOffsets offsets = new LogOffsets(10, 20, 25);

        assertThat(codec.decode(codec.encode(broker), ClusterUseCase.Broker.class)).isEqualTo(broker);
        assertThat(codec.decode(codec.encode(offsets), LogOffsets.class)).isEqualTo(offsets);
    }

    @Test
    void unknownPropertiesAreIgnored() throws IOException {
        byte[] newer = "{\"epoch\": 5, \"baseOffset\": 42, \"addedLater\": true}".getBytes(UTF_8);

        assertThat(codec.decode(newer, Manifest.Segment.class)).isEqualTo(new Manifest.Segment(5, 42));
    }

    @Test
    void malformedDocumentsFail() {
        assertThatThrownBy(() -> codec.decode("{\"epoch\": 5,".getBytes(UTF_8), Manifest.Segment.class))
                .isInstanceOf(IOException.class);
        assertThatThrownBy(() -> codec.decode("{\"epoch\": 5} trailing".getBytes(UTF_8), Manifest.Segment.class))
                .isInstanceOf(IOException.class);
        assertThatThrownBy(() -> codec.decode("null".getBytes(UTF_8), Manifest.Segment.class))
                .isInstanceOf(IOException.class);
        assertThatThrownBy(() -> codec.decode(new byte[0], Manifest.Segment.class)).isInstanceOf(IOException.class);
    }
}
