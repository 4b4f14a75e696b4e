# The kaas broker: bootstrap's runnable jar on a Java 17 runtime, as UID 65532 in group 0 (the chart's
# podSecurityContext). Build from the repository root once the jar exists (see the README, "On Kubernetes"):
#   docker build -f docker/kaas.Dockerfile -t kaas:0.1.0-SNAPSHOT .
FROM eclipse-temurin:17-jre

COPY bootstrap/target/kaas.jar /opt/kaas/kaas.jar

# Outside the chart (a plain `docker run`), the broker keeps its data in /data and listens on every interface; the
# chart sets both itself and mounts the shared volume on /data.
RUN mkdir /data && chown 65532:0 /data && chmod 0770 /data
ENV KAAS_DATA_DIR=/data \
    KAAS_BIND_HOST=0.0.0.0

USER 65532:0
# Kafka clients, broker heartbeats (cluster mode), /healthz and /readyz.
EXPOSE 9092 9094 8080
ENTRYPOINT ["java", "-jar", "/opt/kaas/kaas.jar"]
