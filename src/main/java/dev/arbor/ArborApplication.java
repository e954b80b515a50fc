package dev.arbor;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;
import org.springframework.boot.webmvc.autoconfigure.error.ErrorMvcAutoConfiguration;

/**
 * Arbor: session trees of LLM coding agents over HTTP. Boot's {@code /error} page is left out: errors of the API
 * are problem documents from the web package's advice, and what never reaches it (the container's own refusals, a
 * {@code sendError}) from Tomcat's error report valve, which {@code ProblemReportValve} replaces.
 */
@SpringBootApplication(exclude = ErrorMvcAutoConfiguration.class)
@ConfigurationPropertiesScan
public class ArborApplication {

	public static void main(String[] args) {
		SpringApplication.run(ArborApplication.class, args);
	}

}
