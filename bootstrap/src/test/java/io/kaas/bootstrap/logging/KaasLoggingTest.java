package io.kaas.bootstrap.logging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kaas.application.port.out.LogLevels;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.context.Scope;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

class KaasLoggingTest {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final LineWriter writer = new LineWriter(() -> new PrintStream(out, true, StandardCharsets.UTF_8),
            LineWriter.Format.TEXT);
    private final LoggerLevels levels = new LoggerLevels(Level.INFO, writer);

    @Test
    void aLoggerFollowsItsNearestAncestorWithALevelUntilItHasItsOwn() {
        KaasLogger dispatcher = levels.logger("io.kaas.adapter.wire.Dispatcher");
        assertThat(dispatcher.isDebugEnabled()).isFalse();

        levels.set("io.kaas.adapter", "DEBUG");
        assertThat(dispatcher.isDebugEnabled()).isTrue();
        assertThat(levels.effectiveLevels()).containsEntry("io.kaas.adapter.wire.Dispatcher", "DEBUG")
                .containsEntry("io.kaas.adapter", "DEBUG").containsEntry(LogLevels.ROOT, "INFO");

        levels.set("io.kaas.adapter.wire.Dispatcher", "ERROR");
        assertThat(dispatcher.isWarnEnabled()).isFalse();
        levels.unset("io.kaas.adapter.wire.Dispatcher");
        assertThat(dispatcher.isDebugEnabled()).isTrue();
        levels.unset("io.kaas.adapter");
        assertThat(levels.exists("io.kaas.adapter")).isFalse();
        assertThat(dispatcher.isDebugEnabled()).isFalse();
        assertThat(levels.exists("io.kaas.adapter.wire.Dispatcher")).isTrue();

        levels.set(LogLevels.ROOT, "FATAL"); // log4j's FATAL drops SLF4J's errors too
        assertThat(dispatcher.isErrorEnabled()).isFalse();
        assertThatThrownBy(() -> levels.unset(LogLevels.ROOT)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aLineCarriesTheCurrentSpansIdsAndOnlyAtTheLoggersLevel() {
        KaasLogger logger = levels.logger("io.kaas.Example");
        logger.debug("hidden {}", 1);
        logger.info("plain {}", 2);
        SpanContext context = SpanContext.create("0af7651916cd43dd8448eb211c80319c", "b7ad6b7169203331",
                TraceFlags.getSampled(), TraceState.getDefault());
        try (Scope ignored = Span.wrap(context).makeCurrent()) {
            logger.warn("traced {}", 3);
        }
        String[] lines = out.toString(StandardCharsets.UTF_8).split("\n");
        assertThat(lines).hasSize(2);
        assertThat(lines[0]).matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z INFO Example - plain 2");
        assertThat(lines[1]).endsWith("WARN Example - traced 3 trace_id=0af7651916cd43dd8448eb211c80319c "
                + "span_id=b7ad6b7169203331");
    }

    @Test
    void jsonLinesAreOneObjectEachWithHostileTextEscaped() throws Exception {
        writer.format(LineWriter.Format.JSON);
        KaasLogger logger = levels.logger("io.kaas.Example");
        logger.error("group \"a\\b\"\nnext\u0001", new IllegalStateException("boom"));
        String text = out.toString(StandardCharsets.UTF_8);
        assertThat(text.split("\n")).hasSize(1);
        JsonNode line = new ObjectMapper().readTree(text);
        assertThat(line.get("level").asText()).isEqualTo("ERROR");
        assertThat(line.get("logger").asText()).isEqualTo("io.kaas.Example");
        assertThat(line.get("message").asText()).isEqualTo("group \"a\\b\"\nnext\u0001");
        assertThat(line.get("error").asText()).startsWith("java.lang.IllegalStateException: boom");
        assertThat(line.has("trace_id")).isFalse();
    }

    @Test
    void theEnvironmentGivesTheRootsLevelThenLoggersLevels() {
        assertThat(LoggingSettings.fromEnvironment(Map.of("KAAS_LOG_LEVEL", "debug, io.kaas.application.log=TRACE",
                "KAAS_LOG_FORMAT", "JSON"))).isEqualTo(new LoggingSettings(Map.of(LogLevels.ROOT, "DEBUG",
                "io.kaas.application.log", "TRACE"), java.util.Optional.of("json")));
        assertThatThrownBy(() -> LoggingSettings.fromEnvironment(Map.of("KAAS_LOG_LEVEL", "loud")))
                .hasMessageContaining("KAAS_LOG_LEVEL=loud");
        assertThatThrownBy(() -> LoggingSettings.fromEnvironment(Map.of("KAAS_LOG_FORMAT", "xml")))
                .hasMessageContaining("KAAS_LOG_FORMAT=xml");
    }
}
