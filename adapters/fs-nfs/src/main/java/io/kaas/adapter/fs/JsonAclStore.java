package io.kaas.adapter.fs;

import io.kaas.application.port.out.AclStore;
import io.kaas.domain.security.AclBinding;
import io.kaas.domain.security.AclOperation;
import io.kaas.domain.security.AclPatternType;
import io.kaas.domain.security.AclPermission;
import io.kaas.domain.security.AclResourceType;
import io.kaas.domain.security.KafkaPrincipal;
import java.nio.file.Path;
import java.util.List;

/**
 * {@code __cluster/acls.json}: a format version and a flat list of ACLs, each one principal, host,
 * resource pattern, operation and permission with Apache's enum names ({@code TOPIC}, {@code PREFIXED},
 * {@code DESCRIBE_CONFIGS}, {@code DENY}). Written whole with temp + fsync + rename.
 */
public final class JsonAclStore implements AclStore {
    static final int FORMAT_VERSION = 1;

    private final Path file;
    private final JsonFiles files;

    public JsonAclStore(DataLayout layout, JsonFiles files) {
        this.file = layout.aclsFile();
        this.files = files;
    }

    @Override
    public List<AclBinding> read() {
        return files.read(file, AclsFile.class).map(AclsFile::toBindings).orElse(List.of());
    }

    @Override
    public void write(List<AclBinding> acls) {
        files.write(file, new AclsFile(FORMAT_VERSION, acls.stream().map(AclEntry::of).toList()));
    }

    record AclsFile(int version, List<AclEntry> acls) {
        List<AclBinding> toBindings() {
            return acls == null ? List.of() : acls.stream().map(AclEntry::toBinding).toList();
        }
    }

    record AclEntry(String principal, String host, AclResourceType resourceType, String resourceName,
                    AclPatternType patternType, AclOperation operation, AclPermission permission) {
        static AclEntry of(AclBinding b) {
            return new AclEntry(b.principal().toString(), b.host(), b.resourceType(), b.resourceName(),
                    b.patternType(), b.operation(), b.permission());
        }

        AclBinding toBinding() {
            return new AclBinding(KafkaPrincipal.parse(principal), host, resourceType, resourceName, patternType,
                    operation, permission);
        }
    }
}
