package io.kaas.adapter.wire.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslProvider;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Loading and swapping the context; {@code TlsListenerIT} proves the swap over real connections. */
class ReloadingSslContextTest {
    private static final TestPki.Ca CA = TestPki.Ca.create("reload-test-ca");

    @TempDir
    Path dir;

    private Path cert() {
        return dir.resolve("tls.crt");
    }

    private Path key() {
        return dir.resolve("tls.key");
    }

    @Test
    void servesTheCertificateOfItsFiles() {
        TestPki.Identity server = CA.server().writeTo(cert(), key());
        try (ReloadingSslContext tls = ReloadingSslContext.load("external", TlsSettings.server(cert(), key()),
                SslProvider.JDK)) {
            assertThat(tls.certificate()).isEqualTo(server.certificate());
            SslHandler handler = tls.newHandler(ByteBufAllocator.DEFAULT);
            assertThat(handler.engine().getUseClientMode()).isFalse();
            assertThat(handler.engine().getEnabledProtocols()).containsExactlyInAnyOrder("TLSv1.3", "TLSv1.2");
            assertThat(handler.getHandshakeTimeoutMillis()).isEqualTo(10_000);
        }
    }

    @Test
    void unchangedFilesKeepTheContext() {
        CA.server().writeTo(cert(), key());
        try (ReloadingSslContext tls = load()) {
            assertThat(tls.reloadIfChanged()).isFalse();
            // rewritten with the same bytes: nothing to do either
            TestPki.write(cert(), readString(cert()));
            assertThat(tls.reloadIfChanged()).isFalse();
        }
    }

    @Test
    void aRenewedCertificateIsServedToNewConnections() {
        CA.server().writeTo(cert(), key());
        try (ReloadingSslContext tls = load()) {
            TestPki.Identity renewed = CA.server().writeTo(cert(), key());
            assertThat(tls.reloadIfChanged()).isTrue();
            assertThat(tls.certificate().getSerialNumber()).isEqualTo(renewed.serial());
            assertThat(tls.reloadIfChanged()).isFalse();
        }
    }

    @Test
    void aKeyThatDoesNotMatchTheCertificateKeepsTheOldOneUntilBothArrive() {
        TestPki.Identity first = CA.server().writeTo(cert(), key());
        try (ReloadingSslContext tls = load()) {
            // the certificate of a rotation landed, its key not yet (files written one by one, no symlink swap)
            TestPki.Identity renewed = CA.server();
            TestPki.write(cert(), TestPki.certificatesPem(renewed.certificate()));
            assertThat(tls.reloadIfChanged()).isFalse();
            assertThat(tls.certificate()).isEqualTo(first.certificate());
            assertThat(tls.reloadIfChanged()).isFalse(); // same broken bytes: reported once, not rebuilt
            renewed.writeTo(cert(), key());
            assertThat(tls.reloadIfChanged()).isTrue();
            assertThat(tls.certificate()).isEqualTo(renewed.certificate());
        }
    }

    @Test
    void brokenOrMissingFilesKeepTheCurrentCertificate() throws IOException {
        TestPki.Identity first = CA.server().writeTo(cert(), key());
        try (ReloadingSslContext tls = load()) {
            TestPki.write(key(), "-----BEGIN PRIVATE KEY-----\ntruncated");
            assertThat(tls.reloadIfChanged()).isFalse();
            Files.delete(key());
            assertThat(tls.reloadIfChanged()).isFalse();
            assertThat(tls.certificate()).isEqualTo(first.certificate());
            assertThat(tls.newHandler(ByteBufAllocator.DEFAULT)).isNotNull();
        }
    }

    @Test
    void followsTheKubeletsAtomicSymlinkSwap() throws IOException {
        // A mounted Secret: tls.crt -> ..data/tls.crt, ..data -> ..<timestamp>; an update writes a new
        // timestamped directory and renames a new ..data link over the old one.
        Path mount = Files.createDirectory(dir.resolve("secret"));
        Path v1 = Files.createDirectory(mount.resolve("..2026_12_02_05_00_00.1"));
        TestPki.Identity first = CA.server().writeTo(v1.resolve("tls.crt"), v1.resolve("tls.key"));
        Files.createSymbolicLink(mount.resolve("..data"), v1.getFileName());
        Files.createSymbolicLink(mount.resolve("tls.crt"), Path.of("..data", "tls.crt"));
        Files.createSymbolicLink(mount.resolve("tls.key"), Path.of("..data", "tls.key"));
        TlsSettings settings = TlsSettings.server(mount.resolve("tls.crt"), mount.resolve("tls.key"));
        try (ReloadingSslContext tls = ReloadingSslContext.load("external", settings, SslProvider.JDK)) {
            assertThat(tls.certificate()).isEqualTo(first.certificate());

            Path v2 = Files.createDirectory(mount.resolve("..2026_12_02_06_00_00.2"));
            TestPki.Identity renewed = CA.server().writeTo(v2.resolve("tls.crt"), v2.resolve("tls.key"));
            Path newLink = Files.createSymbolicLink(mount.resolve("..data_tmp"), v2.getFileName());
            Files.move(newLink, mount.resolve("..data"), StandardCopyOption.ATOMIC_MOVE);

            assertThat(tls.reloadIfChanged()).isTrue();
            assertThat(tls.certificate()).isEqualTo(renewed.certificate());
        }
    }

    @Test
    void startupRefusesUnusableFilesNamingThem() {
        assertThatThrownBy(() -> ReloadingSslContext.load("external", TlsSettings.server(cert(), key())))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("listener external: cannot read its TLS files")
                .hasMessageContaining("tls.crt");

        CA.server().writeTo(cert(), key());
        TestPki.write(key(), TestPki.pkcs8Pem(TestPki.ec().getPrivate()));
        assertThatThrownBy(() -> ReloadingSslContext.load("external", TlsSettings.server(cert(), key())))
                .hasMessage(key() + " is not the private key of the certificate in " + cert());
    }

    @Test
    void clientAuthNeedsACaBundle() {
        assertThatThrownBy(() -> new TlsSettings(cert(), key(), java.util.Optional.empty(), TlsClientAuth.REQUIRED,
                TlsSettings.DEFAULT_PROTOCOLS, java.util.List.of(), TlsSettings.DEFAULT_RELOAD_INTERVAL,
                TlsSettings.DEFAULT_HANDSHAKE_TIMEOUT))
                .hasMessageContaining("ssl.client.auth=required needs a CA bundle");
        assertThat(TlsClientAuth.parse(" Requested ")).isEqualTo(TlsClientAuth.REQUESTED);
        assertThatThrownBy(() -> TlsClientAuth.parse("optional"))
                .hasMessage("ssl.client.auth is none, requested or required, got 'optional'");
    }

    @Test
    void theCaBundleIsReloadedWithTheCertificate() {
        CA.server().writeTo(cert(), key());
        Path ca = CA.writeTo(dir.resolve("ca.crt"));
        TlsSettings settings = TlsSettings.server(cert(), key()).withClientAuth(TlsClientAuth.REQUIRED, ca);
        try (ReloadingSslContext tls = ReloadingSslContext.load("mtls", settings, SslProvider.JDK)) {
            assertThat(tls.newHandler(ByteBufAllocator.DEFAULT).engine().getNeedClientAuth()).isTrue();
            TestPki.Ca.create("second-ca").writeTo(ca);
            assertThat(tls.reloadIfChanged()).isTrue();
            TestPki.write(ca, "not a bundle");
            assertThat(tls.reloadIfChanged()).isFalse();
        }
    }

    private ReloadingSslContext load() {
        return ReloadingSslContext.load("external", TlsSettings.server(cert(), key()), SslProvider.JDK);
    }

    private static String readString(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
