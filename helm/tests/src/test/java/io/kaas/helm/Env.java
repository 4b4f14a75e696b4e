package io.kaas.helm;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/** A container's environment, by variable name. */
record Env(Map<String, EnvVar> variables) {

    static Env of(Container container) {
        List<EnvVar> env = container.getEnv();
        return new Env(env.stream().collect(Collectors.toMap(EnvVar::getName, Function.identity(), (a, b) -> {
            throw new AssertionError("variable " + a.getName() + " is set twice");
        })));
    }

    /** The literal value of a variable; fails when it is unset or comes from elsewhere. */
    String value(String name) {
        EnvVar variable = variable(name);
        if (variable.getValueFrom() != null) {
            throw new AssertionError(name + " is not a literal: " + variable.getValueFrom());
        }
        return variable.getValue();
    }

    /** The downward-API field a variable is read from; fails when it is unset or not one. */
    String fieldPath(String name) {
        EnvVar variable = variable(name);
        if (variable.getValueFrom() == null || variable.getValueFrom().getFieldRef() == null) {
            throw new AssertionError(name + " is not read from the downward API: " + variable);
        }
        return variable.getValueFrom().getFieldRef().getFieldPath();
    }

    private EnvVar variable(String name) {
        EnvVar variable = variables.get(name);
        if (variable == null) {
            throw new AssertionError(name + " is not set; the container sets " + variables.keySet());
        }
        return variable;
    }
}
