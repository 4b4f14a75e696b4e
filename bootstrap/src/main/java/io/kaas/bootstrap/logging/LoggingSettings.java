package io.kaas.bootstrap.logging;

import io.kaas.application.port.out.LogLevels;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * How the broker logs, from its environment.
 *
 * @param levels {@code KAAS_LOG_LEVEL}: a level for the root logger, optionally followed by {@code logger=level}
 *               pairs, comma-separated ({@code info,io.kaas.application.log=debug}); empty when unset
 * @param format {@code KAAS_LOG_FORMAT}: {@code text} (the default) or {@code json}; empty when unset
 */
public record LoggingSettings(Map<String, String> levels, Optional<String> format) {
    public LoggingSettings {
        levels = Map.copyOf(levels);
    }

    /** Reads the variables; a value that does not parse throws {@link IllegalArgumentException} saying what they accept. */
    public static LoggingSettings fromEnvironment(Map<String, String> env) {
        Map<String, String> levels = new LinkedHashMap<>();
        String spec = env.get("KAAS_LOG_LEVEL");
        if (spec != null && !spec.isBlank()) {
            parseLevels(spec).forEach((logger, level) -> levels.put(logger, level.name()));
        }
        Optional<String> format = Optional.ofNullable(env.get("KAAS_LOG_FORMAT")).filter(v -> !v.isBlank())
                .map(v -> LineWriter.Format.parse(v).name().toLowerCase(Locale.ROOT));
        return new LoggingSettings(levels, format);
    }

    static Map<String, Level> parseLevels(String spec) {
        Map<String, Level> parsed = new LinkedHashMap<>();
        for (String part : spec.split(",")) {
            if (part.isBlank()) {
                continue;
            }
            int eq = part.indexOf('=');
            String logger = eq < 0 ? LogLevels.ROOT : part.substring(0, eq).trim();
            String level = eq < 0 ? part : part.substring(eq + 1);
            parsed.put(logger, Level.parse(level).orElseThrow(() -> new IllegalArgumentException("KAAS_LOG_LEVEL="
                    + spec + ": expected a level (trace, debug, info, warn, error, fatal), then logger=level pairs, "
                    + "comma-separated")));
        }
        return parsed;
    }
}
