package dev.arbor.copy;

import dev.arbor.config.StorageType;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.core.env.Environment;

/**
 * What to copy: the {@code arbor.copy.*} properties that the command's options stand for ({@link CopyArguments}).
 * Bound by {@link #of}, not by {@code @ConfigurationProperties}: the server's {@code @ConfigurationPropertiesScan}
 * covers this package, and the server has no copy to describe.
 *
 * @param from the store copied from
 * @param to the store copied into
 * @param skipMalformedLines whether a session file with lines that are not entries is copied without them; if not,
 * it is not copied, since the copy would lose those lines without a word
 */
record CopyProperties(StorageType from, StorageType to, @DefaultValue("false") boolean skipMalformedLines) {

	/** The prefix of the properties; {@code StorageTypeImports} reads {@code from} and {@code to} under it too. */
	static final String PREFIX = "arbor.copy";

	static CopyProperties of(Environment environment) {
		return Binder.get(environment)
			.bind(PREFIX, CopyProperties.class)
			.orElseThrow(() -> new IllegalStateException("No " + PREFIX + ".from and .to: run this as the copy command"));
	}

}
