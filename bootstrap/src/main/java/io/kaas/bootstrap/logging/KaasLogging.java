package io.kaas.bootstrap.logging;

import io.kaas.application.port.out.LogLevels;
import java.io.IOException;
import java.io.InputStream;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import org.slf4j.ILoggerFactory;
import org.slf4j.IMarkerFactory;
import org.slf4j.helpers.BasicMarkerFactory;
import org.slf4j.helpers.NOPMDCAdapter;
import org.slf4j.spi.MDCAdapter;
import org.slf4j.spi.SLF4JServiceProvider;

/**
 * The broker's SLF4J backend: one line per event on standard error, in the format
 * {@code KAAS_LOG_FORMAT} names ({@code text}, the default, or {@code json}), with levels from
 * {@code KAAS_LOG_LEVEL} that can change while the broker runs ({@link #levels()}, served as
 * Apache's BROKER_LOGGER resource).
 *
 * <p>Levels at start: {@code kaas-log-levels.properties} on the class path ({@code logger=LEVEL}
 * lines: quiet defaults for chatty libraries), then {@code KAAS_LOG_LEVEL}: a level for the root
 * logger, optionally followed by {@code logger=level} pairs, comma-separated
 * ({@code info,io.kaas.application.log=debug}). SLF4J finds this class through
 * {@code META-INF/services} when the first logger is asked for, before the broker reads its
 * configuration; {@link #configure} then applies the broker's own environment.
 */
public final class KaasLogging implements SLF4JServiceProvider {
    private static final String DEFAULTS = "kaas-log-levels.properties";
    private static volatile KaasLogging installed;

    private final BasicMarkerFactory markers = new BasicMarkerFactory();
    private final NOPMDCAdapter mdc = new NOPMDCAdapter();
    private LineWriter writer;
    private LoggerLevels levels;

    @Override
    public void initialize() {
        writer = new LineWriter(() -> System.err, LineWriter.Format.TEXT);
        levels = new LoggerLevels(Level.INFO, writer);
        levels.setAll(classpathDefaults());
        installed = this;
        try {
            configure(LoggingSettings.fromEnvironment(System.getenv()));
        } catch (IllegalArgumentException e) {
            System.err.println("ignoring the logging configuration: " + e.getMessage()); // no logger to say it yet
        }
    }

    /** Applies the broker's {@code KAAS_LOG_LEVEL} and {@code KAAS_LOG_FORMAT}, when they are set. */
    public static void configure(LoggingSettings settings) {
        KaasLogging logging = installed;
        if (logging == null) {
            return; // another SLF4J backend is in use (a tool's class path): it has its own configuration
        }
        settings.format().ifPresent(format -> logging.writer.format(LineWriter.Format.parse(format)));
        Map<String, Level> levels = new LinkedHashMap<>();
        settings.levels().forEach((logger, level) -> levels.put(logger, Level.valueOf(level)));
        logging.levels.setAll(levels);
    }

    /** The levels of this process's loggers, or empty when another SLF4J backend is in use. */
    public static Optional<LogLevels> levels() {
        KaasLogging logging = installed;
        return logging == null ? Optional.empty() : Optional.of(logging.levels);
    }

    private static Map<String, Level> classpathDefaults() {
        Map<String, Level> defaults = new LinkedHashMap<>();
        try (InputStream in = KaasLogging.class.getClassLoader().getResourceAsStream(DEFAULTS)) {
            if (in != null) {
                Properties properties = new Properties();
                properties.load(in);
                properties.stringPropertyNames().forEach(logger -> Level.parse(properties.getProperty(logger))
                        .ifPresent(level -> defaults.put(logger, level)));
            }
        } catch (IOException e) {
            System.err.println("cannot read " + DEFAULTS + ": " + e);
        }
        return defaults;
    }

    @Override
    public ILoggerFactory getLoggerFactory() {
        return levels::logger;
    }

    @Override
    public IMarkerFactory getMarkerFactory() {
        return markers;
    }

    @Override
    public MDCAdapter getMDCAdapter() {
        return mdc;
    }

    @Override
    public String getRequestedApiVersion() {
        return "2.0.99";
    }
}
