package io.kaas.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpServer;
import io.kaas.adapter.wire.tls.TestPki;
import io.kaas.bootstrap.testing.EmbeddedKaas;
import io.kaas.bootstrap.testing.KaasBrokerExtension;
import io.kaas.bootstrap.testing.RawKafkaConnection;
import io.kaas.domain.security.oauth.TestJwts;
import io.kaas.domain.security.oauth.TestJwts.Key;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
import javax.security.auth.callback.Callback;
import javax.security.auth.callback.UnsupportedCallbackException;
import javax.security.auth.login.AppConfigurationEntry;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.config.SslConfigs;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.message.MetadataRequestData;
import org.apache.kafka.common.message.SaslAuthenticateRequestData;
import org.apache.kafka.common.message.SaslHandshakeRequestData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.MetadataRequest;
import org.apache.kafka.common.requests.MetadataResponse;
import org.apache.kafka.common.requests.SaslAuthenticateRequest;
import org.apache.kafka.common.requests.SaslAuthenticateResponse;
import org.apache.kafka.common.requests.SaslHandshakeRequest;
import org.apache.kafka.common.requests.SaslHandshakeResponse;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.common.security.auth.AuthenticateCallbackHandler;
import org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule;
import org.apache.kafka.common.security.oauthbearer.OAuthBearerToken;
import org.apache.kafka.common.security.oauthbearer.OAuthBearerTokenCallback;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * SASL/OAUTHBEARER over a TLS listener, with real Java clients presenting JWTs signed by keys this test
 * generates and publishes as a JWKS on an in-process HTTP server (the issuer). ACLs under
 * {@code KAAS_AUTHORIZATION_TYPE=simple} are granted to the principal the token's {@code sub} names, so a
 * request the broker attributed to anyone else would be refused. Sessions last
 * {@code KAAS_CONNECTIONS_MAX_REAUTH_MS}: the Java clients re-authenticate on their connections (KIP-368).
 */
class OAuthBearerIT {
    private static final String ISSUER = "https://issuer.kaas.test/realms/kafka";
    private static final long MAX_REAUTH_MS = 10_000;
    private static final Path TLS_DIR = tempDir();
    private static final TestPki.Ca CA = TestPki.Ca.create("kaas oauth test CA");
    private static final Key RSA = Key.rsa("rsa-1");
    private static final Key EC = Key.ec("ec-1");
    /** The keys the test signs with, by kid; the token handler of every client looks its key up here. */
    static final Map<String, Key> SIGNING_KEYS = new ConcurrentHashMap<>(Map.of(RSA.kid(), RSA, EC.kid(), EC));
    private static final AtomicReference<String> PUBLISHED = new AtomicReference<>(TestJwts.jwks(RSA, EC));
    private static final AtomicInteger JWKS_FETCHES = new AtomicInteger();
    private static final HttpServer ISSUER_SERVER = issuer();

    static {
        CA.server().writeTo(TLS_DIR.resolve("tls.crt"), TLS_DIR.resolve("tls.key"));
        List.of("tls.crt", "tls.key").forEach(file -> TLS_DIR.resolve(file).toFile().deleteOnExit());
    }

    private static final String LISTENERS = "["
            + "{\"name\":\"plain\",\"port\":0,\"tls\":false},"
            + "{\"name\":\"oauth\",\"port\":0,\"tls\":true,\"authentication\":{\"type\":\"oauth\","
            + "\"validIssuerUri\":\"" + ISSUER + "\","
            + "\"jwksEndpointUri\":\"http://127.0.0.1:" + ISSUER_SERVER.getAddress().getPort() + "/jwks\","
            + "\"checkAudience\":true,\"clientId\":\"kafka\",\"clockSkewSeconds\":0,\"jwksMinRefreshPauseSeconds\":0},"
            + "\"tlsConfiguration\":{\"certFile\":\"" + TLS_DIR.resolve("tls.crt") + "\",\"keyFile\":\""
            + TLS_DIR.resolve("tls.key") + "\"}}]";

    @RegisterExtension
    static final KaasBrokerExtension KAAS = KaasBrokerExtension.create().withEnv(EmbeddedKaas.FAST_GROUPS)
            .withEnv(Map.of("KAAS_LISTENERS", LISTENERS,
                    "KAAS_AUTHORIZATION_TYPE", "simple",
                    "KAAS_SUPER_USERS", "User:ANONYMOUS",
                    "KAAS_CONNECTIONS_MAX_REAUTH_MS", String.valueOf(MAX_REAUTH_MS)));

    @BeforeAll
    static void theBrokerHasTheIssuersKeys() {
        // fail closed until the first fetch: wait until a token is accepted
        await("the first JWKS fetch").atMost(EmbeddedKaas.DEFAULT_TIMEOUT).ignoreExceptions().untilAsserted(() ->
                assertThat(KAAS.kaas().admin(oauth("alice", RSA, "RS256")).describeCluster().nodes()
                        .get(10, TimeUnit.SECONDS)).isNotEmpty());
    }

    @AfterAll
    static void stopIssuer() {
        ISSUER_SERVER.stop(0);
    }

    @Test
    void producerAndConsumerGroupAreTheTokensSubjectInAclChecks() throws Exception {
        EmbeddedKaas kaas = KAAS.kaas();
        String topic = EmbeddedKaas.uniqueTopicName("oauth");
        String group = "group-" + topic;
        Admin admin = kaas.admin();
        admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get();
        admin.createAcls(List.of(
                allow("alice", new ResourcePattern(ResourceType.TOPIC, topic, PatternType.LITERAL), AclOperation.WRITE),
                allow("alice", new ResourcePattern(ResourceType.TOPIC, topic, PatternType.LITERAL), AclOperation.READ),
                allow("alice", new ResourcePattern(ResourceType.GROUP, group, PatternType.LITERAL), AclOperation.READ)))
                .all().get();

        KafkaProducer<byte[], byte[]> producer = kaas.producer(oauth("alice", RSA, "RS256"));
        await().atMost(Duration.ofSeconds(20)).ignoreExceptions().until(() -> producer.send(
                new ProducerRecord<>(topic, "v0".getBytes(StandardCharsets.UTF_8))).get(10, TimeUnit.SECONDS) != null);
        for (int i = 1; i < 20; i++) {
            producer.send(new ProducerRecord<>(topic, ("v" + i).getBytes(StandardCharsets.UTF_8)));
        }
        producer.flush();
        KafkaConsumer<byte[], byte[]> consumer = kaas.consumer(merge(oauth("alice", EC, "ES256"), Map.of(
                "group.id", group, "auto.offset.reset", "earliest")));
        consumer.subscribe(List.of(topic));
        assertThat(EmbeddedKaas.consume(consumer, 20, EmbeddedKaas.DEFAULT_TIMEOUT)).extracting(OAuthBearerIT::text)
                .containsExactlyElementsOf(values(0, 20));

        // bob's token is as valid as alice's, but bob is granted nothing
        assertThatThrownBy(() -> kaas.producer(merge(oauth("bob", RSA, "RS256"), Map.of("enable.idempotence", "false")))
                .send(new ProducerRecord<>(topic, "v".getBytes(StandardCharsets.UTF_8))).get(15, TimeUnit.SECONDS))
                .hasCauseInstanceOf(TopicAuthorizationException.class);
    }

    @Test
    void tokensTheIssuerDidNotSignForThisListenerAreRefused() {
        EmbeddedKaas kaas = KAAS.kaas();
        Key impostor = new Key(RSA.kid(), Key.rsa("impostor").pair());
        SIGNING_KEYS.put("impostor-rsa-1", impostor);

        assertThatThrownBy(() -> kaas.admin(oauth("alice", impostor, "RS256", Map.of("keyName", "impostor-rsa-1")))
                .describeCluster().nodes().get(30, TimeUnit.SECONDS))
                .hasCauseInstanceOf(SaslAuthenticationException.class);
        assertThatThrownBy(() -> kaas.admin(oauth("alice", RSA, "RS256", Map.of("issuer", "https://evil.example")))
                .describeCluster().nodes().get(30, TimeUnit.SECONDS))
                .hasCauseInstanceOf(SaslAuthenticationException.class);
        assertThatThrownBy(() -> kaas.admin(oauth("alice", RSA, "RS256", Map.of("audience", "billing")))
                .describeCluster().nodes().get(30, TimeUnit.SECONDS))
                .hasCauseInstanceOf(SaslAuthenticationException.class);
    }

    @Test
    void aKeyTheIssuerRotatedInIsFetchedWhenATokenNamesIt() throws Exception {
        Key rotated = Key.ec("ec-2");
        SIGNING_KEYS.put(rotated.kid(), rotated);
        int fetches = JWKS_FETCHES.get();
        PUBLISHED.set(TestJwts.jwks(RSA, EC, rotated));

        // the first attempt names a key the broker does not have yet: refused, and the keys are fetched again
        assertThatThrownBy(() -> KAAS.kaas().admin(oauth("alice", rotated, "ES256")).describeCluster().nodes()
                .get(30, TimeUnit.SECONDS)).hasCauseInstanceOf(SaslAuthenticationException.class);
        await().atMost(EmbeddedKaas.DEFAULT_TIMEOUT).until(() -> JWKS_FETCHES.get() > fetches);
        await().atMost(EmbeddedKaas.DEFAULT_TIMEOUT).ignoreExceptions().untilAsserted(() ->
                assertThat(KAAS.kaas().admin(oauth("alice", rotated, "ES256")).describeCluster().nodes()
                        .get(10, TimeUnit.SECONDS)).isNotEmpty());
    }

    /**
     * A consumer reading for several session lifetimes: its connections re-authenticate (the client counts
     * each one the broker accepted) instead of being closed, and no record is lost or repeated.
     */
    @Test
    void theJavaClientReauthenticatesTransparentlyDuringALongConsume() throws Exception {
        EmbeddedKaas kaas = KAAS.kaas();
        String topic = EmbeddedKaas.uniqueTopicName("reauth");
        kaas.admin().createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get();
        kaas.admin().createAcls(List.of(
                allow("carol", new ResourcePattern(ResourceType.TOPIC, topic, PatternType.LITERAL), AclOperation.READ)))
                .all().get();
        KafkaProducer<byte[], byte[]> producer = kaas.producer();
        KafkaConsumer<byte[], byte[]> consumer = kaas.consumer(oauth("carol", RSA, "RS512"));
        consumer.assign(List.of(new org.apache.kafka.common.TopicPartition(topic, 0)));
        consumer.seekToBeginning(consumer.assignment());

        List<String> received = new ArrayList<>();
        AtomicInteger sent = new AtomicInteger();
        await("two re-authentications").atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(200)).until(() -> {
            producer.send(new ProducerRecord<>(topic, ("r" + sent.getAndIncrement()).getBytes(StandardCharsets.UTF_8)));
            consumer.poll(Duration.ofMillis(200)).forEach(record -> received.add(text(record)));
            return metric(consumer, "successful-reauthentication-total") >= 2;
        });
        producer.flush();
        await().atMost(EmbeddedKaas.DEFAULT_TIMEOUT).until(() -> {
            consumer.poll(Duration.ofMillis(200)).forEach(record -> received.add(text(record)));
            return received.size() >= sent.get();
        });

        assertThat(received).containsExactlyElementsOf(values("r", 0, sent.get()));
        assertThat(metric(consumer, "failed-reauthentication-total")).isZero();
    }

    @Test
    void aSessionEndsWithItsTokenAndAConnectionThatDidNotReauthenticateIsClosed() {
        long nowMs = System.currentTimeMillis();
        long expSeconds = nowMs / 1000 + 5;
        try (RawKafkaConnection connection = tlsConnection()) {
            SaslAuthenticateResponse authenticated = authenticate(connection, token("dave", RSA, "RS256",
                    Map.of("exp", expSeconds)));
            assertThat(authenticated.data().errorCode()).isZero();
            assertThat(authenticated.data().sessionLifetimeMs()).as("bounded by exp, below the broker's bound")
                    .isPositive().isLessThanOrEqualTo(expSeconds * 1000 - nowMs);
            assertThat(connection.<MetadataResponse>send(metadata()).data().brokers()).isNotEmpty();

            await().pollDelay(Duration.ZERO).atMost(Duration.ofSeconds(10))
                    .until(() -> System.currentTimeMillis() > expSeconds * 1000 + 50);
            connection.sendOnly(metadata());

            assertThat(connection.closedByPeer(Duration.ofSeconds(10))).isTrue();
        }
    }

    @Test
    void aConnectionReauthenticatesAsItsPrincipalButNeverAsAnother() {
        try (RawKafkaConnection connection = tlsConnection()) {
            assertThat(authenticate(connection, token("erin", EC, "ES256", Map.of())).data().sessionLifetimeMs())
                    .isPositive().isLessThanOrEqualTo(MAX_REAUTH_MS);
            await().pollDelay(Duration.ofMillis(1_100)).until(() -> true); // one re-authentication a second

            SaslAuthenticateResponse again = authenticate(connection, token("erin", RSA, "RS256", Map.of()));
            assertThat(again.data().errorCode()).isZero();
            assertThat(again.data().sessionLifetimeMs()).isPositive();
            assertThat(connection.<MetadataResponse>send(metadata()).data().brokers()).isNotEmpty();
            await().pollDelay(Duration.ofMillis(1_100)).until(() -> true);

            SaslAuthenticateResponse asAnother = authenticate(connection, token("mallory", RSA, "RS256", Map.of()));
            assertThat(asAnother.data().errorCode()).isEqualTo(Errors.SASL_AUTHENTICATION_FAILED.code());
            assertThat(asAnother.data().errorMessage())
                    .isEqualTo("Cannot change principals during re-authentication from User.erin: User.mallory");
            assertThat(connection.closedByPeer(Duration.ofSeconds(10))).isTrue();
        }
    }

    @Test
    void aRefusedTokenFailsAfterTheErrorChallengeIsAcknowledged() {
        try (RawKafkaConnection connection = tlsConnection()) {
            SaslAuthenticateResponse challenge = authenticate(connection, token("alice", RSA, "RS256",
                    Map.of("exp", System.currentTimeMillis() / 1000 - 5)));
            assertThat(challenge.data().errorCode()).isZero();
            assertThat(new String(challenge.data().authBytes(), StandardCharsets.UTF_8))
                    .isEqualTo("{\"status\":\"invalid_token\"}");

            SaslAuthenticateResponse failed = connection.send(new SaslAuthenticateRequest.Builder(
                    new SaslAuthenticateRequestData().setAuthBytes(new byte[] {1})).build((short) 2));

            assertThat(failed.data().errorCode()).isEqualTo(Errors.SASL_AUTHENTICATION_FAILED.code());
            assertThat(failed.data().errorMessage()).isEqualTo("{\"status\":\"invalid_token\"}");
            assertThat(connection.closedByPeer(Duration.ofSeconds(10))).isTrue();
        }
    }

    /** SaslHandshake then SaslAuthenticate v2 with the client's first message carrying {@code token}. */
    private static SaslAuthenticateResponse authenticate(RawKafkaConnection connection, String token) {
        SaslHandshakeResponse handshake = connection.send(new SaslHandshakeRequest.Builder(
                new SaslHandshakeRequestData().setMechanism("OAUTHBEARER")).build((short) 1));
        assertThat(handshake.data().errorCode()).isZero();
        assertThat(handshake.data().mechanisms()).containsExactly("OAUTHBEARER");
        return connection.send(new SaslAuthenticateRequest.Builder(new SaslAuthenticateRequestData().setAuthBytes(
                ("n,,\u0001auth=Bearer " + token + "\u0001\u0001").getBytes(StandardCharsets.UTF_8))).build((short) 2));
    }

    private static MetadataRequest metadata() {
        return new MetadataRequest(new MetadataRequestData().setTopics(List.of()), (short) 12);
    }

    /** A TLS connection to the oauth listener, trusting the test CA. */
    private static RawKafkaConnection tlsConnection() {
        try {
            KeyStore trust = KeyStore.getInstance("PKCS12");
            trust.load(null, null);
            trust.setCertificateEntry("ca", CA.certificate());
            TrustManagerFactory trustManagers = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            trustManagers.init(trust);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, trustManagers.getTrustManagers(), null);
            SSLSocket socket = (SSLSocket) context.getSocketFactory().createSocket(KAAS.kaas().host(),
                    KAAS.kaas().broker().port("oauth"));
            socket.setSoTimeout(10_000);
            socket.startHandshake();
            return RawKafkaConnection.over(socket);
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A signed token for {@code subject}: the test issuer's, for the audience kafka, valid for an hour. */
    static String token(String subject, Key key, String alg, Map<String, Object> overrides) {
        Map<String, Object> claims = new HashMap<>(TestJwts.claims(ISSUER, subject, System.currentTimeMillis()));
        claims.putAll(overrides);
        return key.sign(alg, claims);
    }

    private static Map<String, Object> oauth(String subject, Key key, String alg) {
        return oauth(subject, key, alg, Map.of());
    }

    /**
     * SASL_SSL with OAUTHBEARER to the oauth listener; {@link TestTokenHandler} mints the token from the JAAS
     * options ({@code keyName} picks a signing key registered under another name than its kid).
     */
    private static Map<String, Object> oauth(String subject, Key key, String alg, Map<String, String> options) {
        StringBuilder jaas = new StringBuilder(OAuthBearerLoginModule.class.getName()).append(" required")
                .append(" subject=\"").append(subject).append('"')
                .append(" keyName=\"").append(options.getOrDefault("keyName", key.kid())).append('"')
                .append(" alg=\"").append(alg).append('"');
        options.forEach((name, value) -> {
            if (!name.equals("keyName")) {
                jaas.append(' ').append(name).append("=\"").append(value).append('"');
            }
        });
        return Map.of(
                CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, KAAS.kaas().broker().bootstrapServers("oauth"),
                CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, "SASL_SSL",
                SslConfigs.SSL_TRUSTSTORE_TYPE_CONFIG, "PEM",
                SslConfigs.SSL_TRUSTSTORE_CERTIFICATES_CONFIG, TestPki.certificatesPem(CA.certificate()),
                SaslConfigs.SASL_MECHANISM, "OAUTHBEARER",
                SaslConfigs.SASL_JAAS_CONFIG, jaas.append(';').toString(),
                SaslConfigs.SASL_LOGIN_CALLBACK_HANDLER_CLASS, TestTokenHandler.class.getName());
    }

    /**
     * The Java client's login callback handler: mints a JWT from the JAAS options ({@code subject},
     * {@code keyName}, {@code alg}, and optional {@code issuer} and {@code audience}), signed with the key
     * registered under {@code keyName}.
     */
    public static final class TestTokenHandler implements AuthenticateCallbackHandler {
        private Map<String, ?> options;

        @Override
        public void configure(Map<String, ?> configs, String saslMechanism, List<AppConfigurationEntry> jaasConfigEntries) {
            options = jaasConfigEntries.get(0).getOptions();
        }

        @Override
        public void handle(Callback[] callbacks) throws UnsupportedCallbackException {
            for (Callback callback : callbacks) {
                if (!(callback instanceof OAuthBearerTokenCallback tokenCallback)) {
                    throw new UnsupportedCallbackException(callback);
                }
                long nowMs = System.currentTimeMillis();
                String subject = (String) options.get("subject");
                Map<String, Object> overrides = new HashMap<>();
                if (options.get("issuer") != null) {
                    overrides.put("iss", options.get("issuer"));
                }
                if (options.get("audience") != null) {
                    overrides.put("aud", options.get("audience"));
                }
                String value = token(subject, SIGNING_KEYS.get((String) options.get("keyName")),
                        (String) options.get("alg"), overrides);
                tokenCallback.token(new OAuthBearerToken() {
                    @Override
                    public String value() {
                        return value;
                    }

                    @Override
                    public Set<String> scope() {
                        return Set.of();
                    }

                    @Override
                    public long lifetimeMs() {
                        return nowMs + 3_600_000;
                    }

                    @Override
                    public String principalName() {
                        return subject;
                    }

                    @Override
                    public Long startTimeMs() {
                        return nowMs;
                    }
                });
            }
        }

        @Override
        public void close() {
        }
    }

    private static AclBinding allow(String user, ResourcePattern pattern, AclOperation operation) {
        return new AclBinding(pattern, new AccessControlEntry("User:" + user, "*", operation, AclPermissionType.ALLOW));
    }

    private static double metric(KafkaConsumer<?, ?> consumer, String name) {
        return consumer.metrics().entrySet().stream()
                .filter(e -> e.getKey().name().equals(name) && e.getKey().group().equals("consumer-metrics"))
                .map(Map.Entry<MetricName, ? extends Metric>::getValue)
                .mapToDouble(m -> ((Number) m.metricValue()).doubleValue()).sum();
    }

    private static String text(ConsumerRecord<byte[], byte[]> record) {
        return new String(record.value(), StandardCharsets.UTF_8);
    }

    private static List<String> values(int from, int to) {
        return values("v", from, to);
    }

    private static List<String> values(String prefix, int from, int to) {
        List<String> values = new ArrayList<>();
        for (int i = from; i < to; i++) {
            values.add(prefix + i);
        }
        return values;
    }

    private static Map<String, Object> merge(Map<String, Object> a, Map<String, Object> b) {
        Map<String, Object> merged = new HashMap<>(a);
        merged.putAll(b);
        return merged;
    }

    /** The issuer: its JWKS on {@code /jwks}, what {@link #PUBLISHED} holds, each fetch counted. */
    private static HttpServer issuer() {
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            server.createContext("/jwks", exchange -> {
                JWKS_FETCHES.incrementAndGet();
                byte[] body = PUBLISHED.get().getBytes(StandardCharsets.UTF_8);
                exchange.getResponseHeaders().add("Content-Type", "application/json");
                exchange.sendResponseHeaders(200, body.length);
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(body);
                }
            });
            server.start();
            return server;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Path tempDir() {
        try {
            Path dir = Files.createTempDirectory("kaas-oauth-it");
            dir.toFile().deleteOnExit();
            return dir;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
