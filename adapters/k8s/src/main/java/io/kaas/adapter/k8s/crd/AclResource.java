package io.kaas.adapter.k8s.crd;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Required;

/** The resource an ACL rule is about. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class AclResource {
    @Required
    @JsonPropertyDescription("topic, group, cluster or transactionalId.")
    private AclResourceType type;

    @JsonPropertyDescription("The resource's name, or its prefix; * for all. Not used for cluster.")
    private String name;

    @JsonPropertyDescription("literal or prefix; unset means literal.")
    private AclPatternType patternType;

    public AclResourceType getType() {
        return type;
    }

    public void setType(AclResourceType type) {
        this.type = type;
    }

    public String getName() {
        return name;
    }

    public void setName(String name) {
        this.name = name;
    }

    public AclPatternType getPatternType() {
        return patternType;
    }

    public void setPatternType(AclPatternType patternType) {
        this.patternType = patternType;
    }
}
