package io.kaas.dev.apiserver;

import io.fabric8.kubernetes.api.model.Config;
import io.fabric8.kubernetes.api.model.ConfigBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * A kubeconfig file naming one server, a context {@code kaas-dev} (namespace {@code default}) and a user without
 * credentials, which is all this server needs: {@code kubectl --kubeconfig PATH get ns}.
 */
final class Kubeconfig {
    static final String NAME = "kaas-dev";

    private Kubeconfig() {
    }

    static String render(String serverUrl) {
        Config config = new ConfigBuilder().withApiVersion("v1").withKind("Config")
                .addNewCluster().withName(NAME).withNewCluster().withServer(serverUrl).endCluster().endCluster()
                .addNewUser().withName(NAME).withNewUser().endUser().endUser()
                .addNewContext().withName(NAME).withNewContext().withCluster(NAME).withUser(NAME)
                .withNamespace("default").endContext().endContext()
                .withCurrentContext(NAME)
                .build();
        return Json.writeYaml(config);
    }

    /** Writes the file whole (a temporary file renamed over it), so a reader never sees half of it. */
    static void write(Path file, String serverUrl) {
        try {
            Path absolute = file.toAbsolutePath();
            Files.createDirectories(absolute.getParent());
            Path temporary = Files.createTempFile(absolute.getParent(), ".kubeconfig-", ".tmp");
            Files.writeString(temporary, render(serverUrl), StandardCharsets.UTF_8);
            Files.move(temporary, absolute, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the kubeconfig " + file, e);
        }
    }
}
