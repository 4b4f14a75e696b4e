package io.kaas.application.topic;

import io.kaas.application.port.in.ConfigUseCase.DescribeCommand;
import io.kaas.application.port.in.ConfigUseCase.Described;
import io.kaas.application.port.in.ConfigUseCase.Entry;
import io.kaas.application.port.in.Outcome;
import io.kaas.application.port.out.LogLevels;
import io.kaas.domain.config.ConfigSource;
import io.kaas.domain.config.ConfigType;
import io.kaas.domain.config.TopicConfigs;
import io.kaas.domain.error.KafkaError;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The BROKER_LOGGER resource (KIP-412) as Apache 3.7 serves it: its name is this broker's id, its
 * configs are logger names whose values are their effective levels (source DYNAMIC_BROKER_LOGGER_CONFIG),
 * SET changes a logger's level and DELETE gives it back to its ancestors, until the broker restarts.
 * Every operation of a resource is checked before any applies.
 */
final class BrokerLoggerConfigs {
    private static final Logger LOG = LoggerFactory.getLogger(BrokerLoggerConfigs.class);
    /** Apache's {@code LogLevelConfig.VALID_LOG_LEVELS}, sorted as its messages list them. */
    private static final List<String> LEVELS = List.of("DEBUG", "ERROR", "FATAL", "INFO", "TRACE", "WARN");
    private static final Set<String> VALID = Set.copyOf(LEVELS);

    private final LogLevels levels;
    private final int brokerId;

    BrokerLoggerConfigs(LogLevels levels, int brokerId) {
        this.levels = levels;
        this.brokerId = brokerId;
    }

    Described describe(DescribeCommand command) {
        String name = command.resource().name();
        if (name == null || name.isEmpty()) {
            return Described.failed(KafkaError.INVALID_REQUEST, "Broker id must not be empty");
        }
        Optional<String> wrong = wrongBroker(name, "Broker id must be an integer, but it is: " + name,
                "Unexpected broker id, expected " + brokerId + " but received " + name);
        if (wrong.isPresent()) {
            return Described.failed(KafkaError.INVALID_REQUEST, wrong.get());
        }
        List<String> keys = command.keys();
        List<Entry> entries = new ArrayList<>();
        levels.effectiveLevels().forEach((logger, level) -> {
            if (keys == null || keys.isEmpty() || keys.contains(logger)) {
                entries.add(new Entry(logger, level, false, ConfigSource.DYNAMIC_BROKER_LOGGER_CONFIG, false, List.of(),
                        ConfigType.UNKNOWN, null));
            }
        });
        return new Described(KafkaError.NONE, null, entries);
    }

    Outcome alter(String name, List<TopicConfigs.Change> changes, boolean validateOnly) {
        Optional<String> wrong = wrongBroker(name == null ? "" : name, "Node id must be an integer, but it is: " + name,
                "Unexpected node id. Expected " + brokerId + ", but received " + name);
        if (wrong.isPresent()) {
            return new Outcome(KafkaError.INVALID_REQUEST, wrong.get());
        }
        for (TopicConfigs.Change change : changes) {
            Optional<Outcome> refused = refusal(change);
            if (refused.isPresent()) {
                return refused.get();
            }
        }
        if (!validateOnly) {
            for (TopicConfigs.Change change : changes) {
                switch (change.op()) {
                    case SET -> {
                        levels.set(change.key(), change.value());
                        LOG.warn("Updated the log level of {} to {}", change.key(), change.value());
                    }
                    case DELETE -> {
                        levels.unset(change.key());
                        LOG.warn("Unset the log level of {}", change.key());
                    }
                    default -> throw new IllegalStateException("refused above: " + change.op());
                }
            }
        }
        return Outcome.OK;
    }

    /** Apache's checks of one operation: the logger exists, a level is one of log4j's, the root keeps one. */
    private Optional<Outcome> refusal(TopicConfigs.Change change) {
        String logger = change.key();
        return switch (change.op()) {
            case SET -> !levels.exists(logger) ? missing(logger) : VALID.contains(change.value()) ? Optional.empty()
                    : Optional.of(new Outcome(KafkaError.INVALID_CONFIG, "Cannot set the log level of " + logger + " to "
                    + change.value() + " as it is not a supported log level. Valid log levels are "
                    + String.join(", ", LEVELS)));
            case DELETE -> !levels.exists(logger) ? missing(logger) : !LogLevels.ROOT.equals(logger) ? Optional.empty()
                    : Optional.of(new Outcome(KafkaError.INVALID_REQUEST, "Removing the log level of the "
                    + LogLevels.ROOT + " logger is not allowed"));
            case APPEND, SUBTRACT -> Optional.of(new Outcome(KafkaError.INVALID_REQUEST, change.op()
                    + " operation is not allowed for the BROKER_LOGGER resource"));
        };
    }

    private static Optional<Outcome> missing(String logger) {
        return Optional.of(new Outcome(KafkaError.INVALID_CONFIG, "Logger " + logger + " does not exist!"));
    }

    private Optional<String> wrongBroker(String name, String notANumber, String notThisBroker) {
        try {
            return Integer.parseInt(name) == brokerId ? Optional.empty() : Optional.of(notThisBroker);
        } catch (NumberFormatException e) {
            return Optional.of(notANumber);
        }
    }
}
