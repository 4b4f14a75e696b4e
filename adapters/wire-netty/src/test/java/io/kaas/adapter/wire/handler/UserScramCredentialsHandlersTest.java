package io.kaas.adapter.wire.handler;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.adapter.wire.support.HandlerTestBase;
import io.kaas.adapter.wire.support.ServedVersionsTest;
import io.kaas.domain.security.ScramCredential;
import io.kaas.domain.security.ScramMechanism;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.kafka.common.message.AlterUserScramCredentialsRequestData;
import org.apache.kafka.common.message.AlterUserScramCredentialsRequestData.ScramCredentialDeletion;
import org.apache.kafka.common.message.AlterUserScramCredentialsRequestData.ScramCredentialUpsertion;
import org.apache.kafka.common.message.AlterUserScramCredentialsResponseData.AlterUserScramCredentialsResult;
import org.apache.kafka.common.message.DescribeUserScramCredentialsRequestData;
import org.apache.kafka.common.message.DescribeUserScramCredentialsResponseData;
import org.apache.kafka.common.message.DescribeUserScramCredentialsResponseData.DescribeUserScramCredentialsResult;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AlterUserScramCredentialsRequest;
import org.apache.kafka.common.requests.AlterUserScramCredentialsResponse;
import org.apache.kafka.common.requests.DescribeUserScramCredentialsRequest;
import org.apache.kafka.common.requests.DescribeUserScramCredentialsResponse;

/** DescribeUserScramCredentials and AlterUserScramCredentials (KIP-554) over the wire, with Apache's numbering and errors. */
class UserScramCredentialsHandlersTest extends HandlerTestBase {
    private static final byte SHA_256 = 1;
    private static final byte SHA_512 = 2;
    private static final byte[] SALT = "pepper".getBytes(StandardCharsets.UTF_8);

    @ServedVersionsTest(ApiKeys.ALTER_USER_SCRAM_CREDENTIALS)
    void anUpsertedCredentialVerifiesThePasswordAndDescribesByMechanismNumber(short version) {
        AlterUserScramCredentialsResponse altered = wire.roundTrip(alter(version, List.of(),
                List.of(upsertion("alice", SHA_512, "s3cret", 8192), upsertion("alice", SHA_256, "s3cret", 4096))));
        assertThat(altered.data().results()).singleElement().satisfies(r -> {
            assertThat(r.user()).isEqualTo("alice");
            assertThat(r.errorCode()).isZero();
        });
        assertThat(broker.credentials().current().user("alice").orElseThrow().scram(ScramMechanism.SCRAM_SHA_512)
                .orElseThrow().matches(ScramMechanism.SCRAM_SHA_512, "s3cret")).isTrue();

        DescribeUserScramCredentialsResponseData described = describe(version, null);
        assertThat(described.errorCode()).isZero();
        assertThat(described.results()).singleElement().satisfies(r -> {
            assertThat(r.user()).isEqualTo("alice");
            assertThat(r.credentialInfos()).extracting(c -> c.mechanism() + "/" + c.iterations())
                    .containsExactly("1/4096", "2/8192");
        });
    }

    @ServedVersionsTest(ApiKeys.ALTER_USER_SCRAM_CREDENTIALS)
    void invalidAlterationsGetApachesErrorCodesPerUser(short version) {
        wire.roundTrip(alter(version, List.of(), List.of(upsertion("bob", SHA_512, "pw", 4096))));

        AlterUserScramCredentialsResponse altered = wire.roundTrip(alter(version,
                List.of(new ScramCredentialDeletion().setName("carol").setMechanism(SHA_512),
                        new ScramCredentialDeletion().setName("dave").setMechanism((byte) 0)),
                List.of(upsertion("erin", SHA_512, "pw", 1024))));

        assertThat(altered.data().results()).extracting(AlterUserScramCredentialsResult::user,
                AlterUserScramCredentialsResult::errorCode).containsExactly(
                        org.assertj.core.groups.Tuple.tuple("carol", Errors.RESOURCE_NOT_FOUND.code()),
                        org.assertj.core.groups.Tuple.tuple("dave", Errors.UNSUPPORTED_SASL_MECHANISM.code()),
                        org.assertj.core.groups.Tuple.tuple("erin", Errors.UNACCEPTABLE_CREDENTIAL.code()));
    }

    @ServedVersionsTest(ApiKeys.DESCRIBE_USER_SCRAM_CREDENTIALS)
    void describingAnUnknownUserIsResourceNotFound(short version) {
        List<DescribeUserScramCredentialsResult> results = describe(version, List.of("nobody")).results();

        assertThat(results).singleElement().satisfies(r -> {
            assertThat(r.errorCode()).isEqualTo(Errors.RESOURCE_NOT_FOUND.code());
            assertThat(r.errorMessage()).isEqualTo("Attempt to describe a user credential that does not exist: nobody");
        });
        assertThat(describe(version, List.of()).results()).as("no users yet").isEmpty();
    }

    private DescribeUserScramCredentialsResponseData describe(short version, List<String> users) {
        DescribeUserScramCredentialsRequestData data = new DescribeUserScramCredentialsRequestData().setUsers(users == null
                ? null : users.stream().map(u -> new DescribeUserScramCredentialsRequestData.UserName().setName(u)).toList());
        return wire.<DescribeUserScramCredentialsResponse>roundTrip(
                new DescribeUserScramCredentialsRequest.Builder(data).build(version)).data();
    }

    private static AlterUserScramCredentialsRequest alter(short version, List<ScramCredentialDeletion> deletions,
                                                          List<ScramCredentialUpsertion> upsertions) {
        return new AlterUserScramCredentialsRequest.Builder(new AlterUserScramCredentialsRequestData()
                .setDeletions(deletions).setUpsertions(upsertions)).build(version);
    }

    private static ScramCredentialUpsertion upsertion(String user, byte mechanism, String password, int iterations) {
        ScramMechanism scram = mechanism == SHA_256 ? ScramMechanism.SCRAM_SHA_256 : ScramMechanism.SCRAM_SHA_512;
        return new ScramCredentialUpsertion().setName(user).setMechanism(mechanism).setIterations(iterations)
                .setSalt(SALT).setSaltedPassword(ScramCredential.saltedPassword(scram, password, SALT, iterations));
    }
}
