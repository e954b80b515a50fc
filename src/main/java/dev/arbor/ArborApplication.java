package dev.arbor;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/** Arbor: session trees of LLM coding agents over HTTP. */
@SpringBootApplication
@ConfigurationPropertiesScan
public class ArborApplication {

	public static void main(String[] args) {
		SpringApplication.run(ArborApplication.class, args);
	}

}
