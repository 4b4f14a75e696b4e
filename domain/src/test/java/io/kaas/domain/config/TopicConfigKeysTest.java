package io.kaas.domain.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kaas.domain.config.TopicConfigKey.Support;
import io.kaas.domain.error.KafkaException;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The key table itself. Every key's type, default and valid values are also checked against
 * Apache's own LogConfig in the wire adapter's tests (the only module that may load Apache code).
 */
class TopicConfigKeysTest {

    @Test
    void holdsEveryApache37TopicKeyOnce() {
        assertThat(TopicConfigKeys.all()).hasSize(31);
        assertThat(TopicConfigKeys.sortedNames()).isSorted().doesNotHaveDuplicates().hasSize(31);
    }

    @Test
    void everyKeyIsDocumentedAndSaysWhyWhenKaasDoesNotApplyIt() {
        for (TopicConfigKey key : TopicConfigKeys.all()) {
            assertThat(key.documentation()).as(key.name()).isNotBlank();
            if (key.support() == Support.INERT) {
                assertThat(key.documentation()).as(key.name()).contains("Inert");
            }
        }
        assertThat(TopicConfigKeys.require("cleanup.policy").documentation()).contains("log cleaner", "INVALID_RECORD");
    }

    @Test
    void whatKaasAppliesIsMarkedSo() {
        List<String> enforced = TopicConfigKeys.all().stream().filter(k -> k.support() == Support.ENFORCED)
                .map(TopicConfigKey::name).toList();
        assertThat(enforced).contains("retention.ms", "retention.bytes", "segment.bytes", "segment.ms", "flush.messages",
                "flush.ms", "max.message.bytes", "message.timestamp.type", "message.timestamp.before.max.ms",
                "message.timestamp.after.max.ms", "index.interval.bytes", "file.delete.delay.ms", "cleanup.policy",
                "min.cleanable.dirty.ratio", "min.compaction.lag.ms", "max.compaction.lag.ms", "delete.retention.ms");
        assertThat(TopicConfigKeys.require("min.insync.replicas").support()).isEqualTo(Support.INERT);
        assertThat(TopicConfigKeys.require("unclean.leader.election.enable").support()).isEqualTo(Support.INERT);
        assertThat(TopicConfigKeys.require("leader.replication.throttled.replicas").support()).isEqualTo(Support.INERT);
    }

    @Test
    void brokerDefaultsFollowApachesSynonyms() {
        assertThat(TopicConfigKeys.require("retention.ms").brokerDefault()).isEqualTo("log.retention.ms");
        assertThat(TopicConfigKeys.require("segment.ms").brokerDefault()).isEqualTo("log.roll.ms");
        assertThat(TopicConfigKeys.require("max.message.bytes").brokerDefault()).isEqualTo("message.max.bytes");
        assertThat(TopicConfigKeys.require("flush.messages").brokerDefault()).isEqualTo("log.flush.interval.messages");
        assertThat(TopicConfigKeys.require("remote.storage.enable").brokerDefaultKey()).isEmpty();
    }

    @Test
    void validatorsRefuseWithApachesWords() {
        assertRefused("segment.bytes", "13", "Invalid value 13 for configuration segment.bytes: Value must be at least 14");
        assertRefused("retention.ms", "-2", "Invalid value -2 for configuration retention.ms: Value must be at least -1");
        assertRefused("min.cleanable.dirty.ratio", "1.5",
                "Invalid value 1.5 for configuration min.cleanable.dirty.ratio: Value must be no more than 1");
        assertRefused("message.timestamp.type", "logappendtime", "Invalid value logappendtime for configuration "
                + "message.timestamp.type: String must be one of: CreateTime, LogAppendTime");
        assertRefused("compression.type", "GZIP", "Invalid value GZIP for configuration compression.type: String must be "
                + "one of: uncompressed, zstd, lz4, snappy, gzip, producer");
        assertRefused("cleanup.policy", "delete,compactx",
                "Invalid value compactx for configuration cleanup.policy: String must be one of: compact, delete");
        assertRefused("leader.replication.throttled.replicas", "0:1,x",
                "Invalid value [0:1, x] for configuration leader.replication.throttled.replicas: "
                        + "leader.replication.throttled.replicas must be the literal '*' or a list of replicas in the "
                        + "following format: [partitionId]:[brokerId],[partitionId]:[brokerId],...");
        assertRefused("message.format.version", "9.9",
                "Invalid value 9.9 for configuration message.format.version: Version 9.9 is not a valid version");
    }

    @Test
    void validatorsAcceptWhatApacheAccepts() {
        assertThat(TopicConfigKeys.require("retention.bytes").parse("-12345")).isEqualTo(-12345L);
        assertThat(TopicConfigKeys.require("cleanup.policy").parse("compact,delete")).isEqualTo(List.of("compact", "delete"));
        assertThat(TopicConfigKeys.require("cleanup.policy").parse("")).isEqualTo(List.of());
        assertThat(TopicConfigKeys.require("follower.replication.throttled.replicas").parse("*")).isEqualTo(List.of("*"));
        assertThat(TopicConfigKeys.require("leader.replication.throttled.replicas").parse("0:1,2:3")).isNotNull();
        for (String version : List.of("3.7.2", "3.7", "3.0-IV1", "2.8-IV1", "0.10.0-IV1", "0.10.2.1", "1.1")) {
            assertThat(TopicConfigKeys.require("message.format.version").parse(version)).as(version).isEqualTo(version);
        }
    }

    private static void assertRefused(String key, String value, String message) {
        assertThatThrownBy(() -> TopicConfigKeys.require(key).parse(value))
                .isInstanceOf(KafkaException.class).hasMessage(message);
    }
}
