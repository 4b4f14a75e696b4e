package io.kaas.adapter.wire.mapping;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.domain.config.AlterOp;
import io.kaas.domain.config.ConfigResourceType;
import io.kaas.domain.config.ConfigSource;
import io.kaas.domain.config.ConfigType;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.requests.DescribeConfigsResponse;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The domain's config enums carry Apache's wire ids, so the wire adapter sends them as they are. */
class ConfigEnumsMatchApacheTest {

    @ParameterizedTest(name = "{0}")
    @EnumSource(ConfigType.class)
    void configTypes(ConfigType type) {
        assertThat(DescribeConfigsResponse.ConfigType.valueOf(type.name()).id()).isEqualTo(type.id());
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(ConfigSource.class)
    void configSources(ConfigSource source) {
        String apacheName = source == ConfigSource.DYNAMIC_TOPIC_CONFIG ? "TOPIC_CONFIG" : source.name();
        assertThat(DescribeConfigsResponse.ConfigSource.valueOf(apacheName).id()).isEqualTo(source.id());
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(ConfigResourceType.class)
    void resourceTypes(ConfigResourceType type) {
        assertThat(ConfigResource.Type.valueOf(type.name()).id()).isEqualTo(type.id());
        assertThat(ConfigResourceType.forId(type.id())).isSameAs(type);
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(AlterOp.class)
    void alterOperations(AlterOp op) {
        assertThat(AlterConfigOp.OpType.valueOf(op.name()).id()).isEqualTo(op.id());
        assertThat(AlterOp.forId(op.id())).contains(op);
    }
}
