package dev.arbor.copy;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import dev.arbor.config.StorageType;

/**
 * The command line of {@code copy}: its own options, which stand for {@code arbor.copy.*} properties, and any other
 * {@code --name=value}, which Spring takes as a setting ({@code --arbor.storage.dir=…},
 * {@code --spring.datasource.url=…}).
 */
final class CopyArguments {

	static final String USAGE = """
			Usage: java -jar arbor.jar copy --from=file --to=postgres [--skip-malformed-lines] [--name=value ...]
			       java -jar arbor.jar copy --from=postgres --to=file [--skip-malformed-lines] [--name=value ...]
			  The folder is arbor.storage.dir, the database spring.datasource.url (with .username and .password),
			  as for the server. --skip-malformed-lines copies a session file with lines that are not entries
			  without them (otherwise it is not copied). Exit code: 0 every session copied or unchanged,
			  1 some session differs, failed or is unreadable, 2 the copy could not run.""";

	private static final String FROM = "--from=";

	private static final String TO = "--to=";

	private static final String SKIP_MALFORMED_LINES = "--skip-malformed-lines";

	private CopyArguments() {
	}

	/**
	 * The arguments for Spring: {@code --from=file} becomes {@code --arbor.copy.from=file}, and so on.
	 *
	 * @throws IllegalArgumentException when the stores are missing, unknown or the same, or an argument is not an
	 * option
	 */
	static List<String> toSpringArguments(String... args) {
		StorageType from = null;
		StorageType to = null;
		List<String> spring = new ArrayList<>();
		for (String arg : args) {
			if (arg.startsWith(FROM)) {
				from = storageType(arg.substring(FROM.length()), "--from");
			}
			else if (arg.startsWith(TO)) {
				to = storageType(arg.substring(TO.length()), "--to");
			}
			else if (arg.equals(SKIP_MALFORMED_LINES)) {
				spring.add("--" + CopyProperties.PREFIX + ".skip-malformed-lines=true");
			}
			else if (arg.startsWith("--" + CopyProperties.PREFIX + ".")) {
				throw new IllegalArgumentException("Say " + arg + " with --from, --to or " + SKIP_MALFORMED_LINES);
			}
			else if (arg.startsWith("--") && arg.length() > 2) {
				spring.add(arg);
			}
			else {
				throw new IllegalArgumentException("Not an option: " + arg);
			}
		}
		if (from == null || to == null) {
			throw new IllegalArgumentException("Say where to copy from and to: --from and --to");
		}
		if (from == to) {
			throw new IllegalArgumentException("--from and --to are both " + name(from));
		}
		spring.add("--" + CopyProperties.PREFIX + ".from=" + name(from));
		spring.add("--" + CopyProperties.PREFIX + ".to=" + name(to));
		return spring;
	}

	static String name(StorageType type) {
		return type.name().toLowerCase(Locale.ROOT);
	}

	private static StorageType storageType(String value, String option) {
		for (StorageType type : StorageType.values()) {
			if (name(type).equals(value)) {
				return type;
			}
		}
		throw new IllegalArgumentException(option + " must be file or postgres, not '" + value + "'");
	}

}
