package dev.arbor;

import java.util.Arrays;

import dev.arbor.copy.CopyCommand;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;
import org.springframework.boot.webmvc.autoconfigure.error.ErrorMvcAutoConfiguration;

/**
 * Arbor: session trees of LLM coding agents over HTTP. Boot's {@code /error} page is left out: errors of the API
 * are problem documents from the web package's advice, and what never reaches it (the container's own refusals, a
 * {@code sendError}) from Jetty's error handler, which {@code ProblemErrorHandler} replaces.
 * <p>
 * With {@code copy} as its first argument, the jar runs {@link CopyCommand} instead of the server.
 */
@SpringBootApplication(exclude = ErrorMvcAutoConfiguration.class)
@ConfigurationPropertiesScan
public class ArborApplication {

	public static void main(String[] args) {
		if (args.length > 0 && CopyCommand.NAME.equals(args[0])) {
			System.exit(CopyCommand.run(Arrays.copyOfRange(args, 1, args.length)));
		}
		SpringApplication.run(ArborApplication.class, args);
	}

}
