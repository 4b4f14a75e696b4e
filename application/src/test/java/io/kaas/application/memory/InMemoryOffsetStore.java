package io.kaas.application.memory;

import io.kaas.application.port.out.OffsetStore;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/** Committed offsets in memory ({@code KAAS_STORAGE=memory}): lost when the broker stops. */
public final class InMemoryOffsetStore implements OffsetStore {
    private final Map<String, StoredGroup> groups = new ConcurrentHashMap<>();

    @Override
    public Optional<StoredGroup> load(String groupId) {
        return Optional.ofNullable(groups.get(groupId));
    }

    @Override
    public void save(StoredGroup group) {
        groups.put(group.groupId(), group);
    }

    @Override
    public void delete(String groupId) {
        groups.remove(groupId);
    }

    @Override
    public List<String> groupIds() {
        return List.copyOf(groups.keySet());
    }
}
