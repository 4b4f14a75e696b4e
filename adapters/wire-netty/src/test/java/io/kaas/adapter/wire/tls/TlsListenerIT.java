package io.kaas.adapter.wire.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.kaas.domain.security.SslPrincipalMapping;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.DefaultFileRegion;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.LineBasedFrameDecoder;
import io.netty.handler.codec.string.StringDecoder;
import io.netty.handler.codec.string.StringEncoder;
import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Real TLS over loopback against the pipeline a TLS listener gets (SslHandler from a
 * {@link ReloadingSslContext}, {@link TlsPrincipalHandler}), behind an application that answers each line
 * with the connection's principal: JDK clients (and a Netty client on OpenSSL) against the JDK and the
 * OpenSSL provider, certificate
 * rotation, client certificates from the right and the wrong CA, and garbage on the TLS port.
 */
class TlsListenerIT {
    private static final TestPki.Ca SERVER_CA = TestPki.Ca.create("server-ca");
    private static final TestPki.Ca CLIENT_CA = TestPki.Ca.create("client-ca");
    private static final TestPki.Ca OTHER_CA = TestPki.Ca.create("other-ca");
    /** The mapping docs/security-tls.md recommends: the CN, which names the KafkaUser. */
    private static final SslPrincipalMapping CN_RULES = SslPrincipalMapping.parse("RULE:^CN=([^,]+).*$/$1/,DEFAULT");

    @TempDir
    Path dir;

    private ReloadingSslContext tls;
    private TlsTestServer server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
        if (tls != null) {
            tls.close();
        }
    }

    @Test
    void openSslIsTheProviderOnLinuxX86_64() {
        assertThat(OpenSsl.isAvailable()).as("netty-tcnative-boringssl-static loads: %s", OpenSsl.unavailabilityCause())
                .isTrue();
        assertThat(ServerSslContexts.preferredProvider()).isEqualTo(SslProvider.OPENSSL);
    }

    @ParameterizedTest
    @EnumSource(value = SslProvider.class, names = {"JDK", "OPENSSL"})
    void jdkClientsHandshakeWithTls13AndTls12(SslProvider provider) throws Exception {
        TestPki.Identity certificate = SERVER_CA.server(TestPki.rsa());
        start(provider, settings(certificate), SslPrincipalMapping.DEFAULT);
        SSLContext client = TlsClients.context(SERVER_CA.certificate(), null);

        try (TlsClients.Connection tls13 = new TlsClients.Connection(client, server.port())) {
            assertThat(tls13.exchange("ping")).isEqualTo("User:ANONYMOUS ping");
            assertThat(tls13.protocol()).isEqualTo("TLSv1.3");
            assertThat(tls13.serverCertificate()).isEqualTo(certificate.certificate());
        }
        try (TlsClients.Connection tls12 = new TlsClients.Connection(client, server.port(), "TLSv1.2")) {
            assertThat(tls12.exchange("ping")).isEqualTo("User:ANONYMOUS ping");
            assertThat(tls12.protocol()).isEqualTo("TLSv1.2");
        }
    }

    @ParameterizedTest
    @EnumSource(value = SslProvider.class, names = {"JDK", "OPENSSL"})
    void protocolsOutsideTheEnabledListAreRefused(SslProvider provider) throws Exception {
        start(provider, settings(SERVER_CA.server()).withProtocols(List.of("TLSv1.3")), SslPrincipalMapping.DEFAULT);
        SSLContext client = TlsClients.context(SERVER_CA.certificate(), null);
        assertThatThrownBy(() -> new TlsClients.Connection(client, server.port(), "TLSv1.2").close())
                .isInstanceOf(IOException.class);
        assertServes(client);
    }

    @ParameterizedTest
    @EnumSource(value = SslProvider.class, names = {"JDK", "OPENSSL"})
    void aRotatedCertificateReachesNewConnectionsWhileOldOnesKeepWorking(SslProvider provider) throws Exception {
        TestPki.Identity first = SERVER_CA.server();
        start(provider, settings(first).withReloadInterval(Duration.ofMillis(100)), SslPrincipalMapping.DEFAULT);
        tls.startWatching();
        SSLContext client = TlsClients.context(SERVER_CA.certificate(), null);

        try (TlsClients.Connection established = new TlsClients.Connection(client, server.port())) {
            assertThat(established.serverCertificate().getSerialNumber()).isEqualTo(first.serial());

            TestPki.Identity renewed = SERVER_CA.server().writeTo(dir.resolve("tls.crt"), dir.resolve("tls.key"));
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
                try (TlsClients.Connection fresh = new TlsClients.Connection(client, server.port())) {
                    assertThat(fresh.serverCertificate().getSerialNumber()).isEqualTo(renewed.serial());
                    assertThat(fresh.exchange("new")).isEqualTo("User:ANONYMOUS new");
                }
            });

            assertThat(established.exchange("still here")).isEqualTo("User:ANONYMOUS still here");
            assertThat(established.serverCertificate().getSerialNumber()).isEqualTo(first.serial());
        }
    }

    @ParameterizedTest
    @EnumSource(value = SslProvider.class, names = {"JDK", "OPENSSL"})
    void requiredClientCertificatesFromTheCaAuthenticateAsTheMappedName(SslProvider provider) throws Exception {
        start(provider, settings(SERVER_CA.server()).withClientAuth(TlsClientAuth.REQUIRED, caFile(CLIENT_CA)),
                CN_RULES);
        TestPki.Identity alice = CLIENT_CA.client("CN=alice,OU=payments,O=Example Corp,C=DE");
        TestPki.Identity noCn = CLIENT_CA.client("OU=batch,O=Example Corp");

        try (TlsClients.Connection connection = new TlsClients.Connection(clientContext(alice), server.port())) {
            assertThat(connection.exchange("hello")).isEqualTo("User:alice hello");
        }
        try (TlsClients.Connection connection = new TlsClients.Connection(clientContext(noCn), server.port())) {
            assertThat(connection.exchange("hello")).isEqualTo("User:OU=batch,O=Example Corp hello");
        }
        Channel aliceChannel = server.accepted().get(0);
        assertThat(TlsPrincipalHandler.principal(aliceChannel).name()).isEqualTo("alice");
    }

    @ParameterizedTest
    @EnumSource(value = SslProvider.class, names = {"JDK", "OPENSSL"})
    void certificatesFromAnotherCaOrNoneAreRefusedAndTheServerCarriesOn(SslProvider provider) throws Exception {
        start(provider, settings(SERVER_CA.server()).withClientAuth(TlsClientAuth.REQUIRED, caFile(CLIENT_CA)),
                CN_RULES);
        TestPki.Identity impostor = OTHER_CA.client("CN=alice,OU=payments,O=Example Corp,C=DE");

        // TLS 1.3: the client's handshake is over before the server judges its certificate, so the
        // refusal arrives as an alert (or a close) on the first exchange
        assertThatThrownBy(() -> {
            try (TlsClients.Connection connection = new TlsClients.Connection(clientContext(impostor), server.port())) {
                connection.exchange("hello");
            }
        }).isInstanceOf(IOException.class);
        assertThatThrownBy(() -> {
            try (TlsClients.Connection connection = new TlsClients.Connection(clientContext(null), server.port())) {
                connection.exchange("hello");
            }
        }).isInstanceOf(IOException.class);

        awaitAllClosed(2);
        // the impostor's certificate was presented and failed verification; the other client sent none
        assertThat(server.handshakeFailures()).hasSize(2);
        assertThat(server.handshakeFailures().get(0))
                .hasStackTraceContaining("unable to find valid certification path");
        assertThat(server.handshakeFailures().get(1)).satisfiesAnyOf(
                jdk -> assertThat(jdk).hasStackTraceContaining("Empty client certificate chain"),
                openSsl -> assertThat(openSsl).hasStackTraceContaining("PEER_DID_NOT_RETURN_A_CERTIFICATE"));
        try (TlsClients.Connection connection = new TlsClients.Connection(
                clientContext(CLIENT_CA.client("CN=bob")), server.port())) {
            assertThat(connection.exchange("after")).isEqualTo("User:bob after");
        }
    }

    /**
     * A Netty client on OpenSSL queues its first line before the handshake, so it is sent right behind the
     * client's Finished (often in the same segment): the principal must already be set when the server
     * decrypts it.
     */
    @ParameterizedTest
    @EnumSource(value = SslProvider.class, names = {"JDK", "OPENSSL"})
    void theFirstBytesAfterTheHandshakeAlreadySeeThePrincipal(SslProvider provider) throws Exception {
        start(provider, settings(SERVER_CA.server()).withClientAuth(TlsClientAuth.REQUIRED, caFile(CLIENT_CA)),
                CN_RULES);
        TestPki.Identity erin = CLIENT_CA.client("CN=erin,O=Example Corp");
        SslContext client = SslContextBuilder.forClient().sslProvider(SslProvider.OPENSSL)
                .keyManager(erin.key(), erin.chain().toArray(X509Certificate[]::new))
                .trustManager(SERVER_CA.certificate()).build();
        CompletableFuture<String> answer = new CompletableFuture<>();
        EventLoopGroup loop = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        try {
            Channel channel = new Bootstrap().group(loop).channel(NioSocketChannel.class)
                    .handler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel ch) {
                            ch.pipeline().addLast(client.newHandler(ch.alloc(), "127.0.0.1", server.port()),
                                    new LineBasedFrameDecoder(1024), new StringDecoder(StandardCharsets.UTF_8),
                                    new StringEncoder(StandardCharsets.UTF_8),
                                    new SimpleChannelInboundHandler<String>() {
                                        @Override
                                        public void channelActive(ChannelHandlerContext ctx) {
                                            ctx.writeAndFlush("first\n"); // held by the SslHandler until the handshake
                                        }

                                        @Override
                                        protected void channelRead0(ChannelHandlerContext ctx, String line) {
                                            answer.complete(line);
                                        }
                                    });
                        }
                    })
                    .connect("127.0.0.1", server.port()).sync().channel();
            assertThat(answer.get(10, TimeUnit.SECONDS)).isEqualTo("User:erin first");
            channel.close().sync();
        } finally {
            loop.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        }
    }

    @ParameterizedTest
    @EnumSource(value = SslProvider.class, names = {"JDK", "OPENSSL"})
    void requestedClientAuthLetsClientsWithoutACertificateInAsAnonymous(SslProvider provider) throws Exception {
        start(provider, settings(SERVER_CA.server()).withClientAuth(TlsClientAuth.REQUESTED, caFile(CLIENT_CA)),
                CN_RULES);
        try (TlsClients.Connection anonymous = new TlsClients.Connection(clientContext(null), server.port());
             TlsClients.Connection carol = new TlsClients.Connection(clientContext(CLIENT_CA.client("CN=carol")),
                     server.port())) {
            assertThat(anonymous.exchange("x")).isEqualTo("User:ANONYMOUS x");
            assertThat(carol.exchange("x")).isEqualTo("User:carol x");
        }
    }

    @Test
    void aCertificateNoRuleMapsIsRefusedAfterTheHandshake() throws Exception {
        SslPrincipalMapping serviceUsersOnly = SslPrincipalMapping.parse("RULE:^CN=([^,]+),OU=ServiceUsers.*$/$1/");
        start(ServerSslContexts.preferredProvider(),
                settings(SERVER_CA.server()).withClientAuth(TlsClientAuth.REQUIRED, caFile(CLIENT_CA)),
                serviceUsersOnly);
        try (TlsClients.Connection service = new TlsClients.Connection(
                clientContext(CLIENT_CA.client("CN=etl,OU=ServiceUsers,O=Example")), server.port())) {
            assertThat(service.exchange("x")).isEqualTo("User:etl x");
        }
        assertThatThrownBy(() -> {
            try (TlsClients.Connection human = new TlsClients.Connection(
                    clientContext(CLIENT_CA.client("CN=dave,OU=Humans,O=Example")), server.port())) {
                human.exchange("x");
            }
        }).isInstanceOf(IOException.class);
    }

    @ParameterizedTest
    @EnumSource(value = SslProvider.class, names = {"JDK", "OPENSSL"})
    void aTruncatedHandshakeIsClosedAtTheHandshakeTimeout(SslProvider provider) throws Exception {
        start(provider, settings(SERVER_CA.server()).withHandshakeTimeout(Duration.ofMillis(500)),
                SslPrincipalMapping.DEFAULT);
        try (Socket raw = new Socket("127.0.0.1", server.port())) {
            raw.setSoTimeout(10_000);
            // a handshake record announcing 512 bytes, then a ClientHello header, then nothing
            send(raw, new byte[] {0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, (byte) 0xFC, 0x03, 0x03});
            assertThat(readUntilClosed(raw.getInputStream())).isTrue();
        }
        awaitAllClosed(1);
        assertServes(TlsClients.context(SERVER_CA.certificate(), null));
    }

    @ParameterizedTest
    @EnumSource(value = SslProvider.class, names = {"JDK", "OPENSSL"})
    void plaintextKafkaBytesOnTheTlsPortCloseTheConnection(SslProvider provider) throws Exception {
        start(provider, settings(SERVER_CA.server()), SslPrincipalMapping.DEFAULT);
        try (Socket raw = new Socket("127.0.0.1", server.port())) {
            raw.setSoTimeout(10_000);
            send(raw, apiVersionsRequestV3());
            assertThat(readUntilClosed(raw.getInputStream())).isTrue();
        }
        awaitAllClosed(1);
        assertServes(TlsClients.context(SERVER_CA.certificate(), null));
    }

    @ParameterizedTest
    @EnumSource(value = SslProvider.class, names = {"JDK", "OPENSSL"})
    void fileRegionsAreSentEncrypted(SslProvider provider) throws Exception {
        start(provider, settings(SERVER_CA.server()), SslPrincipalMapping.DEFAULT);
        String segmentLine = "x".repeat(3 * 1024 * 1024);
        Path segment = java.nio.file.Files.writeString(dir.resolve("segment.log"), segmentLine + "\n");
        try (TlsClients.Connection connection = new TlsClients.Connection(
                TlsClients.context(SERVER_CA.certificate(), null), server.port())) {
            assertThat(connection.exchange("before")).isEqualTo("User:ANONYMOUS before");
            assertThat(connection.exchange("file:" + segment)).isEqualTo(segmentLine);
            assertThat(connection.exchange("after")).isEqualTo("User:ANONYMOUS after");
        }
    }

    private void start(SslProvider provider, TlsSettings settings, SslPrincipalMapping mapping) throws Exception {
        tls = ReloadingSslContext.load("test", settings, provider);
        assertThat(tls.provider()).isEqualTo(provider);
        server = TlsTestServer.start(tls, mapping, () -> List.<ChannelHandler>of(new LineBasedFrameDecoder(1024),
                new StringDecoder(StandardCharsets.UTF_8), new StringEncoder(StandardCharsets.UTF_8),
                new PrincipalEcho()));
    }

    private TlsSettings settings(TestPki.Identity certificate) {
        certificate.writeTo(dir.resolve("tls.crt"), dir.resolve("tls.key"));
        return TlsSettings.server(dir.resolve("tls.crt"), dir.resolve("tls.key"));
    }

    private Path caFile(TestPki.Ca ca) {
        return ca.writeTo(dir.resolve("ca.crt"));
    }

    private static SSLContext clientContext(TestPki.Identity identity) {
        return TlsClients.context(SERVER_CA.certificate(), identity);
    }

    private void assertServes(SSLContext client) throws IOException {
        try (TlsClients.Connection connection = new TlsClients.Connection(client, server.port())) {
            assertThat(connection.exchange("ok")).endsWith(" ok");
        }
    }

    /** Every connection so far ({@code count} of them) is closed on the server side too: nothing lingers. */
    private void awaitAllClosed(int count) {
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(server.accepted())
                .hasSize(count)
                .allSatisfy(channel -> assertThat(channel.isActive()).isFalse()));
    }

    private static void send(Socket socket, byte[] bytes) throws IOException {
        OutputStream out = socket.getOutputStream();
        out.write(bytes);
        out.flush();
    }

    /** Reads until the server closes: true on EOF or a reset, which is how a refused TLS connection ends. */
    private static boolean readUntilClosed(InputStream in) {
        byte[] buffer = new byte[512];
        try {
            while (in.read(buffer) >= 0) {
                // an alert, if the provider sends one before closing
            }
            return true;
        } catch (java.net.SocketTimeoutException stillOpen) {
            return false;
        } catch (IOException reset) {
            return true;
        }
    }

    /** A plaintext Kafka ApiVersions v3 request frame, as a client configured without TLS sends it. */
    private static byte[] apiVersionsRequestV3() {
        byte[] clientId = "plain".getBytes(StandardCharsets.UTF_8);
        ByteBuffer body = ByteBuffer.allocate(64);
        body.putShort((short) 18).putShort((short) 3).putInt(1); // api key, version, correlation id
        body.putShort((short) clientId.length).put(clientId).put((byte) 0); // client id, header tags
        body.put((byte) 1).put((byte) 1).put((byte) 0); // empty software name and version, tags
        body.flip();
        ByteBuffer frame = ByteBuffer.allocate(4 + body.remaining()).putInt(body.remaining()).put(body);
        return frame.array();
    }

    /**
     * Answers each line with the connection's principal and the line, or {@code file:<path>} with that
     * file sent as a file region (as a Fetch from a segment is); closes on errors, as the dispatcher does.
     */
    private static final class PrincipalEcho extends SimpleChannelInboundHandler<String> {
        @Override
        protected void channelRead0(ChannelHandlerContext ctx, String line) {
            if (line.startsWith("file:")) {
                java.io.File file = new java.io.File(line.substring("file:".length()));
                ctx.writeAndFlush(new DefaultFileRegion(file, 0, file.length()));
                return;
            }
            ctx.writeAndFlush(TlsPrincipalHandler.principal(ctx.channel()) + " " + line + "\n");
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close(); // a failed handshake: TlsPrincipalHandler logged it
        }
    }
}
