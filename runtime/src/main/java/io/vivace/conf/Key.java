package io.vivace.conf;

/**
 * One key as vivace-default.xml declares it. {@code value} is the literal default (null when the
 * default is computed or there is none), {@code computed} the computed one (else null).
 */
public record Key(String name, KeyType type, String value, ComputedDefault computed, String module,
                  String description) {
}
