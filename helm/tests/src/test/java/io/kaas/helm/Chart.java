package io.kaas.helm;

import com.marcnuri.helm.Helm;
import com.marcnuri.helm.TemplateCommand;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * The chart in {@code helm/kaas}, rendered by Helm itself (helm-java's bundled native Helm) as release {@value #RELEASE}
 * in namespace {@value #NAMESPACE}, and read back into fabric8's model types.
 */
final class Chart {
    static final Path DIR = Path.of("..", "kaas");
    static final String RELEASE = "kaas";
    static final String NAMESPACE = "kafka";
    /** The oldest Kubernetes the chart supports (Chart.yaml's kubeVersion). */
    static final String KUBE_VERSION = "1.27.0";

    private static final Pattern DOCUMENT_SEPARATOR = Pattern.compile("(?m)^---\\s*$");

    private static final Path VALUES_FILES = Path.of("src", "test", "resources", "values");

    private final List<Path> valuesFiles = new ArrayList<>();
    private final Map<String, Object> values = new LinkedHashMap<>();

    private Chart() {
    }

    /** The chart with its default values. */
    static Chart withDefaults() {
        return new Chart();
    }

    /** Adds {@code --values src/test/resources/values/<name>} (lists are set whole there; --set replaces them). */
    Chart valuesFile(String name) {
        valuesFiles.add(VALUES_FILES.resolve(name));
        return this;
    }

    /** Adds a {@code --set key=value}. */
    Chart set(String key, Object value) {
        values.put(key, value);
        return this;
    }

    /** {@code helm template}: the YAML Helm renders, CRDs included. */
    String renderYaml() {
        TemplateCommand template = new Helm(DIR).template()
                .withName(RELEASE)
                .withNamespace(NAMESPACE)
                .withKubeVersion(KUBE_VERSION);
        valuesFiles.forEach(template::withValuesFile);
        values.forEach(template::set);
        return template.call();
    }

    /** {@code helm template}, every document read as the fabric8 model type of its kind. */
    Manifests render() {
        return new Manifests(DOCUMENT_SEPARATOR.splitAsStream(renderYaml())
                .filter(document -> document.lines().anyMatch(line -> line.startsWith("kind:")))
                .map(document -> (HasMetadata) Serialization.unmarshal(document))
                .filter(Objects::nonNull)
                .toList());
    }

    /** The rendered objects. */
    record Manifests(List<HasMetadata> all) {

        /** The one object of this type and name; fails when there is none. */
        <T extends HasMetadata> T get(Class<T> type, String name) {
            return all.stream()
                    .filter(type::isInstance)
                    .map(type::cast)
                    .filter(object -> object.getMetadata().getName().equals(name))
                    .findFirst()
                    .orElseThrow(() -> new AssertionError("no " + type.getSimpleName() + " " + name + " in "
                            + all.stream().map(o -> o.getKind() + "/" + o.getMetadata().getName()).toList()));
        }

        /** Every object of this type. */
        <T extends HasMetadata> List<T> all(Class<T> type) {
            return all.stream().filter(type::isInstance).map(type::cast).toList();
        }
    }
}
