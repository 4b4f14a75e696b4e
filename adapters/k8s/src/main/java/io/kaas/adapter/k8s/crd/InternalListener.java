package io.kaas.adapter.k8s.crd;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;

/** The in-cluster listener. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class InternalListener {
    @Min(1)
    @Max(65535)
    @JsonPropertyDescription("Its port.")
    private Integer port;

    public Integer getPort() {
        return port;
    }

    public void setPort(Integer port) {
        this.port = port;
    }
}
