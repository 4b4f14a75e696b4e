package io.kaas.adapter.wire.mapping;

import io.kaas.application.port.in.ConfigUseCase;
import io.kaas.domain.config.ConfigResourceType;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.message.CreateTopicsResponseData;
import org.apache.kafka.common.message.DescribeConfigsResponseData;

/**
 * Between the config use case's entries and DescribeConfigs / CreateTopics response shapes. The
 * domain's type, source and resource-type enums carry Apache's wire ids (a test pins them).
 */
public final class ConfigMapping {
    private ConfigMapping() {
    }

    public static ConfigUseCase.Resource resource(byte type, String name) {
        return new ConfigUseCase.Resource(ConfigResourceType.forId(type), name);
    }

    /** An entry at {@code version}: v0 says only whether the value is a default, later versions where it comes from. */
    public static DescribeConfigsResponseData.DescribeConfigsResourceResult describeEntry(ConfigUseCase.Entry e,
                                                                                          short version) {
        DescribeConfigsResponseData.DescribeConfigsResourceResult result =
                new DescribeConfigsResponseData.DescribeConfigsResourceResult()
                        .setName(e.name())
                        .setValue(e.sensitive() ? null : e.value())
                        .setReadOnly(e.readOnly())
                        .setIsDefault(version == 0 && e.isDefault())
                        .setConfigSource(e.source().id())
                        .setIsSensitive(e.sensitive())
                        .setConfigType(e.type().id())
                        .setDocumentation(e.documentation());
        for (ConfigUseCase.Synonym s : e.synonyms()) {
            result.synonyms().add(new DescribeConfigsResponseData.DescribeConfigsSynonym()
                    .setName(s.name()).setValue(e.sensitive() ? null : s.value()).setSource(s.source().id()));
        }
        return result;
    }

    public static List<CreateTopicsResponseData.CreatableTopicConfigs> createTopicConfigs(List<ConfigUseCase.Entry> entries) {
        List<CreateTopicsResponseData.CreatableTopicConfigs> configs = new ArrayList<>(entries.size());
        for (ConfigUseCase.Entry e : entries) {
            configs.add(new CreateTopicsResponseData.CreatableTopicConfigs()
                    .setName(e.name())
                    .setValue(e.sensitive() ? null : e.value())
                    .setReadOnly(e.readOnly())
                    .setConfigSource(e.source().id())
                    .setIsSensitive(e.sensitive()));
        }
        return configs;
    }
}
