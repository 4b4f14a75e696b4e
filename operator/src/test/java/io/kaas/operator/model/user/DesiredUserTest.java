package io.kaas.operator.model.user;

import static io.kaas.operator.model.user.Users.user;
import static io.kaas.operator.model.user.Users.withAcl;
import static io.kaas.operator.model.user.Users.withPasswordFrom;
import static io.kaas.operator.model.user.Users.withQuotas;
import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.adapter.k8s.crd.AclOperation;
import io.kaas.adapter.k8s.crd.AclResourceType;
import io.kaas.adapter.k8s.crd.AuthenticationType;
import io.kaas.adapter.k8s.crd.KafkaUser;
import io.kaas.domain.security.ScramCredential;
import io.kaas.domain.security.ScramMechanism;
import io.kaas.domain.security.StoredUser;
import io.kaas.domain.security.UserQuotas;
import io.kaas.operator.model.Refusal;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.Test;

class DesiredUserTest {
    private static final byte[] SALT = "a-salt-for-credentials-in-tests".getBytes(StandardCharsets.UTF_8);

    @ParameterizedTest
    @EnumSource(ScramMechanism.class)
    void aPasswordBecomesASaltedCredentialOfTheDeclaredMechanismThatKafkaAccepts(ScramMechanism mechanism)
            throws Exception {
        KafkaUser alice = withPasswordFrom(user("alice", type(mechanism)), "alice-password", "password");
        DesiredUser desired = valid(alice);

        StoredUser entry = desired.entry(Optional.empty(), Optional.of("s3cret")).orElseThrow();

        assertThat(desired.login()).isEqualTo(new DesiredUser.ScramPassword(mechanism,
                Optional.of(alice.getSpec().getAuthentication().getPassword().getValueFrom().getSecretKeyRef())));
        assertThat(entry.scram()).containsOnlyKeys(mechanism);
        ScramCredential credential = entry.scram(mechanism).orElseThrow();
        assertThat(credential.iterations()).isEqualTo(4096);
        assertThat(credential.salt()).hasSize(32);
        var kafkas = KafkaScram.derive(mechanism, "s3cret", credential);
        assertThat(kafkas.storedKey()).isEqualTo(credential.storedKey());
        assertThat(kafkas.serverKey()).isEqualTo(credential.serverKey());
        assertThat(KafkaScram.authenticates(mechanism, "alice", "s3cret", credential)).isTrue();
        assertThat(KafkaScram.authenticates(mechanism, "alice", "s3cret!", credential)).isFalse();
    }

    @Test
    void theSamePasswordKeepsTheStoredCredentialAndANewOneRotatesIt() {
        DesiredUser desired = valid(user("alice", AuthenticationType.SCRAM_SHA_512));
        StoredUser first = desired.entry(Optional.empty(), Optional.of("one")).orElseThrow();

        StoredUser again = desired.entry(Optional.of(first), Optional.of("one")).orElseThrow();
        StoredUser rotated = desired.entry(Optional.of(first), Optional.of("two")).orElseThrow();

        assertThat(again).isEqualTo(first);
        ScramCredential next = rotated.scram(ScramMechanism.SCRAM_SHA_512).orElseThrow();
        assertThat(next.salt()).isNotEqualTo(first.scram(ScramMechanism.SCRAM_SHA_512).orElseThrow().salt());
        assertThat(next.matches(ScramMechanism.SCRAM_SHA_512, "two")).isTrue();
        assertThat(next.matches(ScramMechanism.SCRAM_SHA_512, "one")).isFalse();
    }

    @Test
    void aChangedMechanismDropsTheOtherOnesCredential() {
        StoredUser before = valid(user("alice", AuthenticationType.SCRAM_SHA_512))
                .entry(Optional.empty(), Optional.of("pw")).orElseThrow();

        StoredUser after = valid(user("alice", AuthenticationType.SCRAM_SHA_256))
                .entry(Optional.of(before), Optional.of("pw")).orElseThrow();

        assertThat(after.scram()).containsOnlyKeys(ScramMechanism.SCRAM_SHA_256);
    }

    @Test
    void noPasswordSourceMeansAGeneratedSecret() {
        assertThat(valid(user("alice", AuthenticationType.SCRAM_SHA_256)).login())
                .isEqualTo(new DesiredUser.ScramPassword(ScramMechanism.SCRAM_SHA_256, Optional.empty()));
    }

    @Test
    void aPreDerivedCredentialPassesThroughVerbatimAndWinsOverThePassword() {
        ScramCredential given = ScramCredential.derive(ScramMechanism.SCRAM_SHA_512, "rotated", SALT, 8192);
        KafkaUser alice = withPasswordFrom(user("alice", AuthenticationType.SCRAM_SHA_512), "old", "password");
        alice.getSpec().getAuthentication().setScram(crd(given));

        StoredUser entry = valid(alice).entry(Optional.empty(), Optional.empty()).orElseThrow();

        assertThat(entry.scram()).isEqualTo(Map.of(ScramMechanism.SCRAM_SHA_512, given));
    }

    @Test
    void anAdditionalCredentialGivesTheEntryTheOtherMechanismBesideAPasswordOrAPreDerivedOne() {
        ScramCredential sha256 = ScramCredential.derive(ScramMechanism.SCRAM_SHA_256, "second", SALT, 4096);
        KafkaUser fromPassword = user("alice", AuthenticationType.SCRAM_SHA_512);
        fromPassword.getSpec().getAuthentication().setAdditionalScram(crd(sha256));
        ScramCredential sha512 = ScramCredential.derive(ScramMechanism.SCRAM_SHA_512, "first", SALT, 4096);
        KafkaUser preDerived = user("bob", AuthenticationType.SCRAM_SHA_512);
        preDerived.getSpec().getAuthentication().setScram(crd(sha512));
        preDerived.getSpec().getAuthentication().setAdditionalScram(crd(sha256));

        StoredUser alice = valid(fromPassword).entry(Optional.empty(), Optional.of("first")).orElseThrow();
        StoredUser bob = valid(preDerived).entry(Optional.empty(), Optional.empty()).orElseThrow();

        assertThat(alice.scram()).containsOnlyKeys(ScramMechanism.SCRAM_SHA_512, ScramMechanism.SCRAM_SHA_256);
        assertThat(alice.scram(ScramMechanism.SCRAM_SHA_512).orElseThrow()
                .matches(ScramMechanism.SCRAM_SHA_512, "first")).isTrue();
        assertThat(alice.scram(ScramMechanism.SCRAM_SHA_256)).contains(sha256);
        assertThat(bob.scram()).isEqualTo(Map.of(ScramMechanism.SCRAM_SHA_512, sha512,
                ScramMechanism.SCRAM_SHA_256, sha256));
    }

    @Test
    void anAdditionalCredentialOfTheWrongMechanismOrOnATlsUserIsRefused() {
        KafkaUser sameMechanism = user("alice", AuthenticationType.SCRAM_SHA_512);
        sameMechanism.getSpec().getAuthentication().setAdditionalScram(
                crd(ScramCredential.derive(ScramMechanism.SCRAM_SHA_512, "pw", SALT, 4096))); // SHA-256 expected
        KafkaUser tls = user("alice", AuthenticationType.TLS);
        tls.getSpec().getAuthentication().setAdditionalScram(
                crd(ScramCredential.derive(ScramMechanism.SCRAM_SHA_256, "pw", SALT, 4096)));

        assertThat(refusal(sameMechanism).message()).startsWith("spec.authentication.additionalScram is not a "
                + "SCRAM-SHA-256 credential");
        assertThat(refusal(tls).message()).isEqualTo(
                "spec.authentication.additionalScram needs a scram-sha-512 or scram-sha-256 type");
    }

    @Test
    void aMalformedPreDerivedCredentialIsRefused() {
        ScramCredential weak = ScramCredential.derive(ScramMechanism.SCRAM_SHA_512, "pw", SALT, 1000);
        KafkaUser tooFewIterations = user("alice", AuthenticationType.SCRAM_SHA_512);
        tooFewIterations.getSpec().getAuthentication().setScram(crd(weak));
        KafkaUser wrongLength = user("alice", AuthenticationType.SCRAM_SHA_256);
        wrongLength.getSpec().getAuthentication().setScram(crd(ScramCredential.derive(ScramMechanism.SCRAM_SHA_512, "pw", SALT, 4096))); // 64-byte keys are not SHA-256's
        KafkaUser notBase64 = user("alice", AuthenticationType.SCRAM_SHA_512);
        var scram = crd(ScramCredential.derive(ScramMechanism.SCRAM_SHA_512, "pw", SALT, 4096));
        scram.setStoredKey("not base64!");
        notBase64.getSpec().getAuthentication().setScram(scram);

        for (KafkaUser user : new KafkaUser[] {tooFewIterations, wrongLength, notBase64}) {
            assertThat(refusal(user).reason()).isEqualTo("InvalidCredential");
        }
    }

    @Test
    void aTlsUserHasAnEntryWithoutACredentialUnderItsNameWithItsQuotas() {
        KafkaUser tls = withQuotas(user("billing-service", AuthenticationType.TLS), 1_048_576L, 2_097_152L, 25.0);

        StoredUser entry = valid(tls).entry(Optional.empty(), Optional.empty()).orElseThrow();

        assertThat(entry).isEqualTo(new StoredUser("billing-service", Map.of(),
                new UserQuotas(1_048_576L, 2_097_152L, 25.0, null)));
    }

    @Test
    void anAuthorizationOnlyUserHasAnEntryOnlyToCarryQuotas() {
        KafkaUser plain = withAcl(user("oauth-client", null), AclResourceType.TOPIC, "orders", null, null, null,
                AclOperation.READ);
        KafkaUser limited = withQuotas(user("oauth-limited", null), null, 1024L, null);

        assertThat(valid(plain).entry(Optional.empty(), Optional.empty())).isEmpty();
        assertThat(valid(limited).entry(Optional.empty(), Optional.empty())).contains(new StoredUser("oauth-limited",
                Map.of(), new UserQuotas(null, 1024L, null, null)));
    }

    @Test
    void anUnexpressibleAclRefusesTheUser() {
        KafkaUser alice = withAcl(user("alice", AuthenticationType.TLS), AclResourceType.TOPIC, null, null, null, null,
                AclOperation.READ);

        assertThat(refusal(alice).reason()).isEqualTo("InvalidAcl");
    }

    @Test
    void aPasswordReferenceWithoutAKeyIsRefused() {
        KafkaUser alice = withPasswordFrom(user("alice", AuthenticationType.SCRAM_SHA_512), "secret", null);

        assertThat(refusal(alice).message()).contains("secretKeyRef needs a name and a key");
    }

    private static AuthenticationType type(ScramMechanism mechanism) {
        return mechanism == ScramMechanism.SCRAM_SHA_256 ? AuthenticationType.SCRAM_SHA_256
                : AuthenticationType.SCRAM_SHA_512;
    }

    private static io.kaas.adapter.k8s.crd.ScramCredential crd(ScramCredential credential) {
        Base64.Encoder b64 = Base64.getEncoder();
        var scram = new io.kaas.adapter.k8s.crd.ScramCredential();
        scram.setSalt(b64.encodeToString(credential.salt()));
        scram.setIterations(credential.iterations());
        scram.setStoredKey(b64.encodeToString(credential.storedKey()));
        scram.setServerKey(b64.encodeToString(credential.serverKey()));
        return scram;
    }

    private static DesiredUser valid(KafkaUser user) {
        DesiredUser.Check check = DesiredUser.of(user);
        assertThat(check).isInstanceOf(DesiredUser.Valid.class);
        return ((DesiredUser.Valid) check).user();
    }

    private static Refusal refusal(KafkaUser user) {
        DesiredUser.Check check = DesiredUser.of(user);
        assertThat(check).isInstanceOf(DesiredUser.Invalid.class);
        return ((DesiredUser.Invalid) check).refusal();
    }
}
