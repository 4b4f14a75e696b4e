package io.kaas.helm;

import static org.assertj.core.api.Assertions.assertThat;

import com.marcnuri.helm.Helm;
import com.marcnuri.helm.InstallCommand;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** NOTES.txt, as helm install prints it (a client-only dry run), tells the user where to connect. */
class NotesTest {

    @Test
    void itGivesTheBootstrapAddressAndAClientCommand() {
        String notes = notes(install());

        assertThat(notes).contains("kubectl -n kafka rollout status statefulset/kaas");
        assertThat(notes).contains("kaas-bootstrap.kafka.svc:9092");
        assertThat(notes).contains("--bootstrap-server kaas-bootstrap.kafka.svc:9092");
        assertThat(notes).doesNotContain("Listeners").doesNotContain("orphan").doesNotContain("WARNING");
    }

    @Test
    void itListsTheListenersWhenSeveralAreDeclaredAndWarnsAboutTheOperatorsSweep() {
        String notes = notes(install().withValuesFile(Path.of("src", "test", "resources", "values",
                "everything.yaml")));

        assertThat(notes).contains("plain: port 9092, plaintext, authentication none",
                "authed: port 9095, plaintext, authentication scram-sha-512").doesNotContain("WARNING");
        assertThat(notes).contains("removes every topic directory");
    }

    @Test
    void itNamesTheSecretATlsListenerReadsItsCertificateFrom() {
        String notes = notes(install().withValuesFile(Path.of("src", "test", "resources", "values",
                "tls-listener.yaml")));

        assertThat(notes).contains("Listener external is TLS", "the Secret\nkaas-external-tls",
                "mounted at /etc/kaas/tls/external/").doesNotContain("Listener plain is TLS").doesNotContain("WARNING");
    }

    private static InstallCommand install() {
        return new Helm(Chart.DIR).install().withName(Chart.RELEASE).withNamespace(Chart.NAMESPACE)
                .withKubeVersion(Chart.KUBE_VERSION).clientOnly().dryRun();
    }

    private static String notes(InstallCommand install) {
        String output = install.call().getOutput();
        assertThat(output).contains("NOTES:");
        return output.substring(output.indexOf("NOTES:"));
    }
}
