package dev.arbor.operations;

import java.io.IOException;
import java.net.ConnectException;
import java.util.concurrent.TimeoutException;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The 502's detail names the provider and says what went wrong, down to the root cause. */
class SummaryFailedExceptionTests {

	@Test
	void messageShouldNameTheProviderAndTheFailure() {
		assertThat(new SummaryFailedException("openai", new TimeoutException("no summary within 5m")).getMessage())
			.isEqualTo("The summary model (openai) failed: no summary within 5m");
	}

	@Test
	void messageShouldAddTheRootCauseWhenTheFailureSaysLittle() {
		IOException failure = new IOException("Request failed", new ConnectException("Connection refused"));
		assertThat(new SummaryFailedException("openai", failure).getMessage())
			.isEqualTo("The summary model (openai) failed: Request failed: Connection refused");
	}

	@Test
	void messageShouldNotRepeatARootCauseItAlreadySays() {
		IOException failure = new IOException("500: Connection refused", new ConnectException("Connection refused"));
		assertThat(new SummaryFailedException("ollama", failure).getMessage())
			.isEqualTo("The summary model (ollama) failed: 500: Connection refused");
	}

	@Test
	void aFailureWithoutAMessageShouldBeNamedByItsType() {
		assertThat(new SummaryFailedException("anthropic", new IllegalStateException()).getMessage())
			.isEqualTo("The summary model (anthropic) failed: IllegalStateException");
	}

	@Test
	void providerShouldBeKept() {
		assertThat(new SummaryFailedException("ollama", new IOException("x")).provider()).isEqualTo("ollama");
	}

}
