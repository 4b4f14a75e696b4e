package io.kaas.domain.topic;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Expected messages are kafka-clients 3.7.2's {@code Topic.validate} wording, byte for byte. */
class TopicNamesTest {

    @ParameterizedTest
    @ValueSource(strings = {"a", "orders", "Orders.v2", "my_topic-1", "__consumer_offsets", "...", "a..b", "-"})
    void acceptsLegalNames(String name) {
        assertThat(TopicNames.validate(name)).isEmpty();
    }

    @Test
    void rejectsTheEmptyName() {
        assertThat(TopicNames.validate("")).hasValue("Topic name is invalid: the empty string is not allowed");
        assertThat(TopicNames.validate(null)).hasValue("Topic name is invalid: the empty string is not allowed");
    }

    @Test
    void rejectsDotAndDotDot() {
        assertThat(TopicNames.validate(".")).hasValue("Topic name is invalid: '.' is not allowed");
        assertThat(TopicNames.validate("..")).hasValue("Topic name is invalid: '..' is not allowed");
    }

    @Test
    void allowsAtMost249Characters() {
        assertThat(TopicNames.validate("x".repeat(249))).isEmpty();
        String tooLong = "x".repeat(250);
        assertThat(TopicNames.validate(tooLong)).hasValue("Topic name is invalid: the length of '" + tooLong
                + "' is longer than the max allowed length 249");
    }

    @ParameterizedTest
    @ValueSource(strings = {"a b", "a/b", "a:b", "a+b", "ü", "tab\t", "a*"})
    void rejectsCharactersOutsideTheLegalSet(String name) {
        assertThat(TopicNames.validate(name)).hasValue("Topic name is invalid: '" + name
                + "' contains one or more characters other than ASCII alphanumerics, '.', '_' and '-'");
    }

    @Test
    void dotAndUnderscoreCollide() {
        assertThat(TopicNames.collide("a.b", "a_b")).isTrue();
        assertThat(TopicNames.collide("a_b", "a.b")).isTrue();
        assertThat(TopicNames.collide("x.y_z", "x_y.z")).isTrue();
    }

    @Test
    void aNameDoesNotCollideWithItselfOrWithDifferentNames() {
        assertThat(TopicNames.collide("a", "a")).isFalse();
        assertThat(TopicNames.collide("a.b", "a.b")).isFalse();
        assertThat(TopicNames.collide("a.b", "a-b")).isFalse();
        assertThat(TopicNames.collide("ab", "a_b")).isFalse();
    }
}
