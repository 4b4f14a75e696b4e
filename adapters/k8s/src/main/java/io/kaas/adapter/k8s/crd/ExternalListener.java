package io.kaas.adapter.k8s.crd;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.crd.generator.annotation.PrinterColumn;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;

/** The external listener: per-broker hostnames behind a Gateway, with certificates from cert-manager. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class ExternalListener {
    @PrinterColumn(name = "External")
    @JsonPropertyDescription("Whether the operator builds the external access path.")
    private Boolean enabled;

    @Min(1)
    @Max(65535)
    @JsonPropertyDescription("Its port.")
    private Integer port;

    @JsonPropertyDescription("Per-broker hostname, %d standing for the broker id, e.g. broker-%d.kafka.example.com.")
    private String hostnamePattern;

    @JsonPropertyDescription("The hostname clients bootstrap from.")
    private String bootstrapHostname;

    @JsonPropertyDescription("Where the listener's certificates come from.")
    private ListenerTls tls;

    @JsonPropertyDescription("The Gateway the per-broker TLSRoutes attach to.")
    private GatewayRouting gateway;

    public Boolean getEnabled() {
        return enabled;
    }

    public void setEnabled(Boolean enabled) {
        this.enabled = enabled;
    }

    public Integer getPort() {
        return port;
    }

    public void setPort(Integer port) {
        this.port = port;
    }

    public String getHostnamePattern() {
        return hostnamePattern;
    }

    public void setHostnamePattern(String hostnamePattern) {
        this.hostnamePattern = hostnamePattern;
    }

    public String getBootstrapHostname() {
        return bootstrapHostname;
    }

    public void setBootstrapHostname(String bootstrapHostname) {
        this.bootstrapHostname = bootstrapHostname;
    }

    public ListenerTls getTls() {
        return tls;
    }

    public void setTls(ListenerTls tls) {
        this.tls = tls;
    }

    public GatewayRouting getGateway() {
        return gateway;
    }

    public void setGateway(GatewayRouting gateway) {
        this.gateway = gateway;
    }
}
