# The kaas operator: the operator module's runnable jar on a Java 17 runtime, as UID 65532 in group 0 (the chart's
# podSecurityContext). Build from the repository root once the jar exists (see the README, "On Kubernetes"):
#   docker build -f docker/kaas-operator.Dockerfile -t kaas-operator:0.1.0-SNAPSHOT .
FROM eclipse-temurin:17-jre

COPY operator/target/kaas-operator.jar /opt/kaas/kaas-operator.jar

USER 65532:0
ENTRYPOINT ["java", "-jar", "/opt/kaas/kaas-operator.jar"]
