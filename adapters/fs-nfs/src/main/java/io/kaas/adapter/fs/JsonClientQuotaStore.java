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
 * wire ({@code {"type": "client-id", "name": "app"}}, {@code {"type": "ip", "name": "10.0.0.1"}}, a null name for
 * the type's default entity) and its values
 * under Apache's config names. Written whole with temp + fsync + rename.
 */
public final class JsonClientQuotaStore implements ClientQuotaStore {
    static final int FORMAT_VERSION = 1;
    private static final String USER = "user";
    private static final String CLIENT_ID = "client-id";
    private static final String IP = "ip";

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
        List<EntityEntry> entries = new ArrayList<>();
        quotas.entities().forEach((entity, values) -> entries.add(EntityEntry.of(entity, values)));
        quotas.ips().forEach((ip, values) -> entries.add(new EntityEntry(List.of(new Part(IP, ip.value())),
                new TreeMap<>(values))));
        files.write(file, new QuotasFile(FORMAT_VERSION, entries));
    }

    record QuotasFile(int version, List<EntityEntry> quotas) {
        StoredClientQuotas toQuotas() {
            Map<QuotaEntity, Map<String, Double>> entities = new LinkedHashMap<>();
            Map<QuotaEntity.Name, Map<String, Double>> ips = new LinkedHashMap<>();
            if (quotas != null) {
                for (EntityEntry q : quotas) {
                    Map<String, Double> values = q.values == null ? Map.of() : q.values;
                    if (q.isIp()) {
                        ips.put(QuotaEntity.Name.orDefault(q.entity.get(0).name), values);
                    } else {
                        entities.put(q.toEntity(), values);
                    }
                }
            }
            return new StoredClientQuotas(entities, ips);
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

        /** An IP entity: one part, of type ip (Apache combines an IP with nothing else). */
        boolean isIp() {
            return entity.size() == 1 && IP.equals(entity.get(0).type);
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
