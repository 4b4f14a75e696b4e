package io.kaas.adapter.wire.handler;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.adapter.wire.support.HandlerTestBase;
import io.kaas.adapter.wire.support.ServedVersionsTest;
import io.kaas.domain.security.StoredUser;
import io.kaas.domain.security.UserQuotas;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.message.DescribeClientQuotasRequestData;
import org.apache.kafka.common.message.DescribeClientQuotasRequestData.ComponentData;
import org.apache.kafka.common.message.DescribeClientQuotasResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.DescribeClientQuotasRequest;
import org.apache.kafka.common.requests.DescribeClientQuotasResponse;

/** DescribeClientQuotas at every served version: per-user quotas from the credentials, Apache's filter errors. */
class DescribeClientQuotasHandlerTest extends HandlerTestBase {

    @ServedVersionsTest(ApiKeys.DESCRIBE_CLIENT_QUOTAS)
    void aUsersQuotasAreDescribedUnderApachesNames(short version) {
        broker.credentials().update(c -> c.with(new StoredUser("alice", Map.of(), new UserQuotas(1024L, null, null, null))));

        DescribeClientQuotasResponseData data = describe(version, new ComponentData().setEntityType("user")
                .setMatchType(DescribeClientQuotasRequest.MATCH_TYPE_EXACT).setMatch("alice"));

        assertThat(data.errorCode()).isZero();
        assertThat(data.entries()).singleElement().satisfies(e -> {
            assertThat(e.entity()).singleElement().satisfies(entity -> {
                assertThat(entity.entityType()).isEqualTo("user");
                assertThat(entity.entityName()).isEqualTo("alice");
            });
            assertThat(e.values()).singleElement().satisfies(v -> {
                assertThat(v.key()).isEqualTo("producer_byte_rate");
                assertThat(v.value()).isEqualTo(1024.0);
            });
        });
    }

    @ServedVersionsTest(ApiKeys.DESCRIBE_CLIENT_QUOTAS)
    void aUserWithoutQuotasHasNoEntryAndABadFilterIsRefusedWithoutEntries(short version) {
        assertThat(describe(version, new ComponentData().setEntityType("user")
                .setMatchType(DescribeClientQuotasRequest.MATCH_TYPE_EXACT).setMatch("nobody")).entries()).isEmpty();

        DescribeClientQuotasResponseData bad = describe(version, new ComponentData().setEntityType("user")
                .setMatchType((byte) 7));
        assertThat(bad.errorCode()).isEqualTo(Errors.INVALID_REQUEST.code());
        assertThat(bad.errorMessage()).isEqualTo("Unknown match type 7");
        assertThat(bad.entries()).isNull();
    }

    private DescribeClientQuotasResponseData describe(short version, ComponentData component) {
        DescribeClientQuotasRequestData request = new DescribeClientQuotasRequestData().setStrict(true)
                .setComponents(List.of(component));
        return wire.<DescribeClientQuotasResponse>roundTrip(new DescribeClientQuotasRequest(request, version)).data();
    }
}
