package io.kaas.adapter.fs;

import io.kaas.application.port.out.ClientQuotaStore;
import io.kaas.domain.quota.QuotaEntity;
import io.kaas.domain.quota.StoredClientQuotas;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code __cluster/client-quotas.json}: a format version and a list of entities, each with its parts as on the
 * wire ({@code {"type": "client-id", "name": "app"}}, a null name for the type's default entity) and its values
 * under Apache's config names. Written whole with temp + fsync + rename.
 */
public final class JsonClientQuotaStore implements ClientQuotaStore {
    static final int FORMAT_VERSION = 1;
    private static final String USER = "user";
    private static final String CLIENT_ID = "client-id";

    private final Path file;
    private final JsonFiles files;

    public JsonClientQuotaStore(DataLayout layout, JsonFiles files) {
        this.file = layout.clientQuotasFile();
        this.files = files;
    }

    @Override
    public StoredClientQuotas read() {
        return files.read(file, QuotasFile.class).map(QuotasFile::toQuotas).orElse(StoredClientQuotas.EMPTY);
    }

    @Override
    public void write(StoredClientQuotas quotas) {
        files.write(file, new QuotasFile(FORMAT_VERSION, quotas.entities().entrySet().stream()
                .map(e -> EntityEntry.of(e.getKey(), e.getValue()))
                .toList()));
    }

    record QuotasFile(int version, List<EntityEntry> quotas) {
        StoredClientQuotas toQuotas() {
            Map<QuotaEntity, Map<String, Double>> entities = new LinkedHashMap<>();
            if (quotas != null) {
                quotas.forEach(q -> entities.put(q.toEntity(), q.values == null ? Map.of() : q.values));
            }
            return new StoredClientQuotas(entities);
        }
    }

    record EntityEntry(List<Part> entity, Map<String, Double> values) {
        static EntityEntry of(QuotaEntity entity, Map<String, Double> values) {
            List<Part> parts = new ArrayList<>();
            if (entity.user() != null) {
                parts.add(new Part(USER, entity.user().value()));
            }
            if (entity.clientId() != null) {
                parts.add(new Part(CLIENT_ID, entity.clientId().value()));
            }
            return new EntityEntry(parts, new TreeMap<>(values));
        }

        QuotaEntity toEntity() {
            QuotaEntity.Name user = null;
            QuotaEntity.Name clientId = null;
            for (Part part : entity) {
                switch (part.type) {
                    case USER -> user = QuotaEntity.Name.orDefault(part.name);
                    case CLIENT_ID -> clientId = QuotaEntity.Name.orDefault(part.name);
                    default -> throw new IllegalArgumentException("unknown quota entity type " + part.type);
                }
            }
            return new QuotaEntity(user, clientId);
        }
    }

    /** One part of an entity, as on the wire: its type and name, a null name being the type's default entity. */
    record Part(String type, String name) {
    }
}
