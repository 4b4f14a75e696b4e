package io.kaas.operator.reconciler.user;

import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.javaoperatorsdk.operator.api.config.informer.InformerEventSourceConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.ErrorStatusUpdateControl;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.MaxReconciliationInterval;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import io.kaas.adapter.k8s.crd.KafkaUser;
import io.kaas.domain.security.ScramMechanism;
import io.kaas.domain.security.StoredUser;
import io.kaas.operator.model.Refusal;
import io.kaas.operator.model.user.DesiredUser;
import io.kaas.operator.model.user.UserAcls;
import io.kaas.operator.reconciler.StatusWriter;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Materialises KafkaUser resources into {@code __cluster/credentials.json} (the user's entry: its SCRAM credential
 * and quotas) and {@code __cluster/acls.json} (rebuilt from every KafkaUser), through {@link SecurityFiles}, and reports
 * Ready with the generation it describes.
 *
 * <p>A SCRAM credential is derived (random salt, {@link DesiredUser#ITERATIONS} iterations) only when the password no
 * longer derives the stored one, so reconciling again rewrites nothing. A missing Secret parks the user (Ready=False,
 * {@code SecretNotFound}): the Secret informer reconciles it again when the Secret appears or changes, and a slow
 * retry covers an informer that missed it. No finalizer: a resource being deleted is left alone, and its entry and
 * ACLs go when the deletion is seen ({@link SecurityFiles#remove}) or at the next orphan sweep ({@link OrphanUserSweep}).
 */
@ControllerConfiguration(name = KafkaUserReconciler.NAME,
        maxReconciliationInterval = @MaxReconciliationInterval(interval = 300, timeUnit = TimeUnit.SECONDS))
public final class KafkaUserReconciler implements Reconciler<KafkaUser> {
    public static final String NAME = "kafkauser";
    public static final String MATERIALIZED = "Materialized";
    public static final String MATERIALIZE_FAILED = "MaterializeFailed";
    /** How soon a parked user is looked at again without a Secret event. */
    static final Duration PARKED_RETRY = Duration.ofMinutes(1);
    private static final String SECRET_INDEX = "kaas-password-secret";
    private static final Logger LOG = LoggerFactory.getLogger(KafkaUserReconciler.class);

    private final SecurityFiles files;
    private final Clock clock;

    public KafkaUserReconciler(SecurityFiles files, Clock clock) {
        this.files = files;
        this.clock = clock;
    }

    /** Secrets, mapped to the users whose password they hold (referenced, or generated for them). */
    @Override
    public List<EventSource<?, KafkaUser>> prepareEventSources(EventSourceContext<KafkaUser> context) {
        context.getPrimaryCache().addIndexer(SECRET_INDEX, user -> passwordSecret(user).map(List::of).orElse(List.of()));
        InformerEventSourceConfiguration<Secret> secrets = InformerEventSourceConfiguration
                .from(Secret.class, KafkaUser.class)
                .withNamespacesInheritedFromController()
                .withSecondaryToPrimaryMapper(secret -> context.getPrimaryCache()
                        .byIndex(SECRET_INDEX, secret.getMetadata().getName()).stream()
                        .filter(user -> user.getMetadata().getNamespace().equals(secret.getMetadata().getNamespace()))
                        .map(ResourceID::fromResource)
                        .collect(Collectors.toSet()))
                .build();
        return List.of(new InformerEventSource<>(secrets, context));
    }

    @Override
    public UpdateControl<KafkaUser> reconcile(KafkaUser resource, Context<KafkaUser> context) {
        if (resource.isMarkedForDeletion()) {
            return UpdateControl.noUpdate(); // no finalizer of ours; its entry goes once it is gone
        }
        StatusWriter writer = new StatusWriter(context.getClient());
        DesiredUser.Check check = DesiredUser.of(resource);
        if (check instanceof DesiredUser.Invalid invalid) {
            report(writer, resource, false, invalid.refusal().reason(), invalid.refusal().message());
            return UpdateControl.noUpdate();
        }
        DesiredUser desired = ((DesiredUser.Valid) check).user();
        Optional<String> password = Optional.empty();
        if (desired.login() instanceof DesiredUser.ScramPassword scram) {
            UserPasswords passwords = new UserPasswords(context.getClient());
            UserPasswords.Lookup lookup = scram.secret().map(ref -> passwords.referenced(resource, ref))
                    .orElseGet(() -> passwords.generated(resource));
            if (lookup instanceof UserPasswords.Missing missing) {
                Refusal why = missing.refusal();
                LOG.info("KafkaUser {}/{} parked ({}): {}", resource.getMetadata().getNamespace(),
                        resource.getMetadata().getName(), why.reason(), why.message());
                report(writer, resource, false, why.reason(), why.message());
                return UpdateControl.<KafkaUser>noUpdate().rescheduleAfter(PARKED_RETRY);
            }
            password = Optional.of(((UserPasswords.Found) lookup).password());
        }
        Optional<String> secret = password;
        Optional<StoredUser> entry = files.materialize(desired.name(), current -> desired.entry(current, secret),
                context.getPrimaryCache().list().toList());
        report(writer, resource, true, MATERIALIZED, describe(entry, resource));
        return UpdateControl.noUpdate(); // the status is written, conditionally, above
    }

    /** Ready=False with the failure, when the API server takes it; the retry that follows reports again. */
    @Override
    public ErrorStatusUpdateControl<KafkaUser> updateErrorStatus(KafkaUser resource, Context<KafkaUser> context,
                                                                 Exception e) {
        LOG.warn("KafkaUser {}/{}: reconcile failed; retrying", resource.getMetadata().getNamespace(),
                resource.getMetadata().getName(), e);
        try {
            report(new StatusWriter(context.getClient()), resource, false, MATERIALIZE_FAILED, String.valueOf(
                    e.getMessage()));
        } catch (KubernetesClientException writeFailed) {
            LOG.debug("KafkaUser {}: the failure could not be reported", resource.getMetadata().getName(), writeFailed);
        }
        return ErrorStatusUpdateControl.noStatusUpdate();
    }

    /** The Secret a user's password is in, if it has one. */
    private static Optional<String> passwordSecret(KafkaUser user) {
        if (!(DesiredUser.of(user) instanceof DesiredUser.Valid valid)
                || !(valid.user().login() instanceof DesiredUser.ScramPassword scram)) {
            return Optional.empty();
        }
        return Optional.of(scram.secret().map(ref -> ref.getName())
                .orElseGet(() -> UserPasswords.generatedSecretName(user.getMetadata().getName())));
    }

    private static String describe(Optional<StoredUser> entry, KafkaUser resource) {
        int acls = UserAcls.of(resource) instanceof UserAcls.Valid valid ? valid.bindings().size() : 0;
        String credential = entry.map(user -> user.scram().isEmpty() ? "an entry without a SCRAM credential"
                : user.scram().keySet().stream().map(ScramMechanism::mechanismName)
                        .collect(Collectors.joining(" and ", "a ", " credential")))
                .orElse("no credentials.json entry");
        boolean quotas = entry.map(user -> !user.quotas().isEmpty()).orElse(false);
        return credential + (quotas ? " with quotas" : "") + " and " + acls + " ACL" + (acls == 1 ? "" : "s")
                + " in acls.json";
    }

    private void report(StatusWriter writer, KafkaUser resource, boolean ready, String reason, String message) {
        writer.writeReady(resource, ready, reason, message, clock.instant());
    }
}
