package io.kaas.adapter.wire.handler;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.adapter.wire.support.HandlerTestBase;
import io.kaas.adapter.wire.support.ServedVersionsTest;
import io.kaas.domain.quota.QuotaEntity;
import io.kaas.domain.security.UserQuotas;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.message.AlterClientQuotasRequestData;
import org.apache.kafka.common.message.AlterClientQuotasRequestData.EntityData;
import org.apache.kafka.common.message.AlterClientQuotasRequestData.EntryData;
import org.apache.kafka.common.message.AlterClientQuotasRequestData.OpData;
import org.apache.kafka.common.message.AlterClientQuotasResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AlterClientQuotasRequest;
import org.apache.kafka.common.requests.AlterClientQuotasResponse;

/** AlterClientQuotas at every served version: quotas written under Apache's names, one result per entity. */
class AlterClientQuotasHandlerTest extends HandlerTestBase {

    @ServedVersionsTest(ApiKeys.ALTER_CLIENT_QUOTAS)
    void aUsersQuotasGoWithTheUserADefaultClientIdsAndAnIpsBesideItAndABadIpIsRefused(short version) {
        AlterClientQuotasResponseData data = alter(version, false,
                entry("user", "alice", new OpData().setKey("producer_byte_rate").setValue(1024.0),
                        new OpData().setKey("request_percentage").setValue(12.5)),
                entry("ip", "10.0.0.1", new OpData().setKey("connection_creation_rate").setValue(5.0)),
                entry("client-id", null, new OpData().setKey("producer_byte_rate").setValue(2048.0)),
                entry("ip", "10.0.0.1.5", new OpData().setKey("connection_creation_rate").setValue(5.0)));

        assertThat(data.entries()).hasSize(4);
        assertThat(data.entries().get(0).errorCode()).isZero();
        assertThat(data.entries().get(0).entity()).singleElement().satisfies(e -> {
            assertThat(e.entityType()).isEqualTo("user");
            assertThat(e.entityName()).isEqualTo("alice");
        });
        assertThat(data.entries().get(1).errorCode()).isZero();
        assertThat(data.entries().get(3).errorCode()).isEqualTo(Errors.INVALID_REQUEST.code());
        assertThat(data.entries().get(3).errorMessage()).isEqualTo("10.0.0.1.5 is not a valid IP or resolvable host.");
        assertThat(data.entries().get(2).errorCode()).isZero();
        assertThat(data.entries().get(2).entity()).singleElement()
                .satisfies(e -> assertThat(e.entityName()).as("the default entity").isNull());
        assertThat(broker.credentials().current().user("alice").orElseThrow().quotas())
                .isEqualTo(new UserQuotas(1024L, null, 12.5, null));
        assertThat(broker.clientQuotas().read().entities())
                .containsExactly(Map.entry(QuotaEntity.clientId(QuotaEntity.Name.DEFAULT),
                        Map.of("producer_byte_rate", 2048.0)));
        assertThat(broker.clientQuotas().read().ips())
                .containsExactly(Map.entry(QuotaEntity.Name.of("10.0.0.1"), Map.of("connection_creation_rate", 5.0)));
    }

    @ServedVersionsTest(ApiKeys.ALTER_CLIENT_QUOTAS)
    void validateOnlyChangesNothingAndARemovalNeedsNoValue(short version) {
        assertThat(alter(version, true, entry("user", "bob", new OpData().setKey("consumer_byte_rate").setValue(8.0)))
                .entries()).singleElement().satisfies(e -> assertThat(e.errorCode()).isZero());
        assertThat(broker.credentials().current().user("bob")).isEmpty();

        alter(version, false, entry("user", "bob", new OpData().setKey("consumer_byte_rate").setValue(8.0)));
        alter(version, false, entry("user", "bob", new OpData().setKey("consumer_byte_rate").setRemove(true)));
        assertThat(broker.credentials().current().user("bob")).isEmpty();
    }

    private static EntryData entry(String type, String name, OpData... ops) {
        return new EntryData().setEntity(List.of(new EntityData().setEntityType(type).setEntityName(name)))
                .setOps(List.of(ops));
    }

    private AlterClientQuotasResponseData alter(short version, boolean validateOnly, EntryData... entries) {
        AlterClientQuotasRequestData request = new AlterClientQuotasRequestData().setValidateOnly(validateOnly)
                .setEntries(List.of(entries));
        return wire.<AlterClientQuotasResponse>roundTrip(new AlterClientQuotasRequest(request, version))
                .data();
    }
}
