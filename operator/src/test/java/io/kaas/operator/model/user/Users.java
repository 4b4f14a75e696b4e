package io.kaas.operator.model.user;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.kaas.adapter.k8s.crd.AclOperation;
import io.kaas.adapter.k8s.crd.AclPatternType;
import io.kaas.adapter.k8s.crd.AclResource;
import io.kaas.adapter.k8s.crd.AclResourceType;
import io.kaas.adapter.k8s.crd.AclRule;
import io.kaas.adapter.k8s.crd.AclRuleType;
import io.kaas.adapter.k8s.crd.AuthenticationType;
import io.kaas.adapter.k8s.crd.AuthorizationType;
import io.kaas.adapter.k8s.crd.KafkaUser;
import io.kaas.adapter.k8s.crd.KafkaUserSpec;
import io.kaas.adapter.k8s.crd.PasswordSource;
import io.kaas.adapter.k8s.crd.PasswordValueFrom;
import io.kaas.adapter.k8s.crd.SecretKeyReference;
import io.kaas.adapter.k8s.crd.UserAuthentication;
import io.kaas.adapter.k8s.crd.UserAuthorization;
import io.kaas.adapter.k8s.crd.UserQuotas;
import java.util.ArrayList;
import java.util.List;

/** KafkaUser resources for tests, built as a person writes them in YAML. */
public final class Users {
    private Users() {
    }

    public static KafkaUser user(String name, AuthenticationType type) {
        KafkaUser user = new KafkaUser();
        user.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace("test").build());
        KafkaUserSpec spec = new KafkaUserSpec();
        if (type != null) {
            UserAuthentication authentication = new UserAuthentication();
            authentication.setType(type);
            spec.setAuthentication(authentication);
        }
        user.setSpec(spec);
        return user;
    }

    public static KafkaUser withPasswordFrom(KafkaUser user, String secret, String key) {
        SecretKeyReference ref = new SecretKeyReference();
        ref.setName(secret);
        ref.setKey(key);
        PasswordValueFrom from = new PasswordValueFrom();
        from.setSecretKeyRef(ref);
        PasswordSource source = new PasswordSource();
        source.setValueFrom(from);
        user.getSpec().getAuthentication().setPassword(source);
        return user;
    }

    public static KafkaUser withQuotas(KafkaUser user, Long producer, Long consumer, Double requestPercentage) {
        UserQuotas quotas = new UserQuotas();
        quotas.setProducerMaxByteRatePerBroker(producer);
        quotas.setConsumerMaxByteRatePerBroker(consumer);
        quotas.setRequestPercentage(requestPercentage);
        user.getSpec().setQuotas(quotas);
        return user;
    }

    /** Adds a rule; {@code name}, {@code pattern}, {@code host} and {@code type} may be null, as when omitted. */
    public static KafkaUser withAcl(KafkaUser user, AclResourceType resourceType, String name, AclPatternType pattern,
                                    String host, AclRuleType type, AclOperation... operations) {
        if (user.getSpec().getAuthorization() == null) {
            UserAuthorization authorization = new UserAuthorization();
            authorization.setType(AuthorizationType.SIMPLE);
            authorization.setAcls(new ArrayList<>());
            user.getSpec().setAuthorization(authorization);
        }
        AclResource resource = new AclResource();
        resource.setType(resourceType);
        resource.setName(name);
        resource.setPatternType(pattern);
        AclRule rule = new AclRule();
        rule.setResource(resource);
        rule.setHost(host);
        rule.setType(type);
        rule.setOperations(List.of(operations));
        user.getSpec().getAuthorization().getAcls().add(rule);
        return user;
    }
}
