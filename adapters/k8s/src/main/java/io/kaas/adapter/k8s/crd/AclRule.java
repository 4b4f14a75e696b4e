package io.kaas.adapter.k8s.crd;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Required;
import java.util.List;

/** One ACL rule: which operations on which resources, from which host, allowed or denied. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class AclRule {
    @JsonPropertyDescription("allow or deny; unset means allow.")
    private AclRuleType type;

    @Required
    @JsonPropertyDescription("What the rule is about.")
    private AclResource resource;

    @JsonPropertyDescription("The client host the rule applies to; unset means every host (*).")
    private String host;

    @Required
    @JsonPropertyDescription("The operations the rule allows or denies.")
    private List<AclOperation> operations;

    public AclRuleType getType() {
        return type;
    }

    public void setType(AclRuleType type) {
        this.type = type;
    }

    public AclResource getResource() {
        return resource;
    }

    public void setResource(AclResource resource) {
        this.resource = resource;
    }

    public String getHost() {
        return host;
    }

    public void setHost(String host) {
        this.host = host;
    }

    public List<AclOperation> getOperations() {
        return operations;
    }

    public void setOperations(List<AclOperation> operations) {
        this.operations = operations;
    }
}
