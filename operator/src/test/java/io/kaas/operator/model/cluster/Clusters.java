package io.kaas.operator.model.cluster;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.kaas.adapter.k8s.crd.CertManagerIssuance;
import io.kaas.adapter.k8s.crd.ClusterListeners;
import io.kaas.adapter.k8s.crd.ExternalListener;
import io.kaas.adapter.k8s.crd.GatewayReference;
import io.kaas.adapter.k8s.crd.GatewayRouting;
import io.kaas.adapter.k8s.crd.InternalListener;
import io.kaas.adapter.k8s.crd.IssuerReference;
import io.kaas.adapter.k8s.crd.KafkaCluster;
import io.kaas.adapter.k8s.crd.KafkaClusterSpec;
import io.kaas.adapter.k8s.crd.ListenerTls;

/** KafkaCluster resources for tests: the CRD reference's example, with every part of the external listener on. */
public final class Clusters {
    private Clusters() {
    }

    public static KafkaCluster external(String name, int replicas) {
        KafkaCluster cluster = new KafkaCluster();
        cluster.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace("test").build());
        KafkaClusterSpec spec = new KafkaClusterSpec();
        spec.setReplicas(replicas);
        InternalListener internal = new InternalListener();
        internal.setPort(9092);
        ExternalListener external = new ExternalListener();
        external.setEnabled(true);
        external.setPort(9093);
        external.setHostnamePattern("broker-%d.kafka.example.com");
        external.setBootstrapHostname("kafka.example.com");
        IssuerReference issuer = new IssuerReference();
        issuer.setName("letsencrypt");
        issuer.setKind("ClusterIssuer");
        CertManagerIssuance certManager = new CertManagerIssuance();
        certManager.setEnabled(true);
        certManager.setIssuerRef(issuer);
        ListenerTls tls = new ListenerTls();
        tls.setCertManager(certManager);
        external.setTls(tls);
        GatewayReference gatewayRef = new GatewayReference();
        gatewayRef.setName("public-gateway");
        gatewayRef.setNamespace("gateway-system");
        GatewayRouting gateway = new GatewayRouting();
        gateway.setEnabled(true);
        gateway.setGatewayRef(gatewayRef);
        external.setGateway(gateway);
        ClusterListeners listeners = new ClusterListeners();
        listeners.setInternal(internal);
        listeners.setExternal(external);
        spec.setListeners(listeners);
        cluster.setSpec(spec);
        return cluster;
    }
}
