package io.kaas.adapter.k8s.crd;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Required;
import java.util.List;

/** A user's ACLs, written inline as in Strimzi's simple authorization. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class UserAuthorization {
    @Required
    @JsonPropertyDescription("simple.")
    private AuthorizationType type;

    @JsonPropertyDescription("The rules; the same rule for N users is written on N KafkaUsers.")
    private List<AclRule> acls;

    public AuthorizationType getType() {
        return type;
    }

    public void setType(AuthorizationType type) {
        this.type = type;
    }

    public List<AclRule> getAcls() {
        return acls;
    }

    public void setAcls(List<AclRule> acls) {
        this.acls = acls;
    }
}
