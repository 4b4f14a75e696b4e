package io.kaas.adapter.wire.handler;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * The request-level check AlterConfigs and IncrementalAlterConfigs share: a resource named twice
 * is refused in both places (INVALID_REQUEST, "Each resource must appear at most once."), as Apache does.
 */
final class ConfigResources {
    static final String DUPLICATE = "Each resource must appear at most once.";

    private ConfigResources() {
    }

    /** The positions (in {@code resources}) of resources whose type and name appear more than once. */
    static <R> Set<Integer> duplicated(List<R> resources, Function<R, Byte> type, Function<R, String> name) {
        Map<String, Integer> first = new HashMap<>();
        Set<Integer> twice = new HashSet<>();
        for (int i = 0; i < resources.size(); i++) {
            R r = resources.get(i);
            Integer earlier = first.putIfAbsent(type.apply(r) + "/" + name.apply(r), i);
            if (earlier != null) {
                twice.add(earlier);
                twice.add(i);
            }
        }
        return twice;
    }
}
