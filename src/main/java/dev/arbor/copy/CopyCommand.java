package dev.arbor.copy;

import java.util.List;
import java.util.Map;

import org.springframework.boot.Banner;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;

/**
 * {@code copy}: copies every session of one store into another. {@code ArborApplication.main} runs it when its first
 * argument is {@code copy}:
 *
 * <pre>
 * java -jar arbor.jar copy --from=file --to=postgres --arbor.storage.dir=… --spring.datasource.url=…
 * </pre>
 *
 * A Spring application of its own ({@link CopyConfiguration}), with no web server: the two stores made from the
 * server's settings, one line per session, a summary, and an exit code.
 */
public final class CopyCommand {

	/** The first argument that selects this command instead of the server. */
	public static final String NAME = "copy";

	/** Every session of the source is in the target now: copied, or there already. */
	static final int EXIT_DONE = 0;

	/** Some session was not copied: it differs in the target, or failed, or a source file is unreadable. */
	static final int EXIT_INCOMPLETE = 1;

	/**
	 * The copy could not run, or not to the end: wrong arguments, no source folder, no database. What it printed
	 * before stopping was done.
	 */
	static final int EXIT_NOT_RUN = 2;

	private CopyCommand() {
	}

	/**
	 * Runs the command in this JVM.
	 *
	 * @param args the arguments after {@code copy}
	 * @return the exit code: {@link #EXIT_DONE}, {@link #EXIT_INCOMPLETE} or {@link #EXIT_NOT_RUN}
	 */
	public static int run(String... args) {
		if (List.of(args).contains("--help")) {
			System.out.println(CopyArguments.USAGE);
			return EXIT_DONE;
		}
		List<String> springArguments;
		try {
			springArguments = CopyArguments.toSpringArguments(args);
		}
		catch (IllegalArgumentException ex) {
			System.err.println(ex.getMessage());
			System.err.println(CopyArguments.USAGE);
			return EXIT_NOT_RUN;
		}
		SpringApplication application = new SpringApplication(CopyConfiguration.class);
		application.setWebApplicationType(WebApplicationType.NONE);
		application.setBannerMode(Banner.Mode.OFF);
		application.setLogStartupInfo(false);
		// The report is the output; --logging.level.root=info brings back what Hikari and Flyway say.
		application.setDefaultProperties(Map.of("logging.level.root", "warn"));
		try {
			return SpringApplication.exit(application.run(springArguments.toArray(String[]::new)));
		}
		catch (RuntimeException ex) {
			return EXIT_NOT_RUN; // Spring Boot has logged why
		}
	}

}
