/**
 * The kaas custom resources, {@code kaas.rs/v1alpha1}: {@link io.kaas.adapter.k8s.crd.KafkaTopic},
 * {@link io.kaas.adapter.k8s.crd.KafkaUser} and {@link io.kaas.adapter.k8s.crd.KafkaCluster}. Types only: the
 * operator reconciles them, brokers will read and write them for the admin APIs. fabric8's crd-generator turns them
 * into the CRD YAML under {@code helm/kaas/crds/} at build time; {@code CrdYamlIsCurrentTest} fails the build when the
 * committed YAML is not what these types generate.
 */
package io.kaas.adapter.k8s.crd;
