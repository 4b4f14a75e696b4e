package io.kaas.domain.security;

import java.util.Collections;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/** Every user the cluster knows, by name: the content of {@code __cluster/credentials.json}. */
public record Credentials(Map<String, StoredUser> users) {
    public static final Credentials EMPTY = new Credentials(Map.of());

    public Credentials {
        users = Collections.unmodifiableMap(new TreeMap<>(users));
    }

    public Optional<StoredUser> user(String name) {
        return Optional.ofNullable(users.get(name));
    }

    public Credentials with(StoredUser user) {
        TreeMap<String, StoredUser> next = new TreeMap<>(users);
        next.put(user.name(), user);
        return new Credentials(next);
    }

    public Credentials without(String name) {
        TreeMap<String, StoredUser> next = new TreeMap<>(users);
        next.remove(name);
        return new Credentials(next);
    }
}
