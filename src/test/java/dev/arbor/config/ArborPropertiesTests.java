package dev.arbor.config;

import java.nio.file.Path;
import java.time.Duration;

import dev.arbor.storage.file.FsyncPolicy;
import dev.arbor.summary.SummaryProvider;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.context.ConfigurationPropertiesAutoConfiguration;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.validation.autoconfigure.ValidationAutoConfiguration;
import org.springframework.context.annotation.Configuration;
import org.springframework.util.unit.DataSize;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code arbor.*} binds with its documented defaults and refuses values it cannot use. */
class ArborPropertiesTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ConfigurationPropertiesAutoConfiguration.class,
				ValidationAutoConfiguration.class))
		.withUserConfiguration(PropertiesOnly.class);

	@Test
	void bindWhenNothingIsSetShouldUseTheDocumentedDefaults() {
		this.runner.run(context -> {
			ArborProperties.Storage storage = context.getBean(ArborProperties.class).storage();
			assertThat(storage.dir()).isEqualTo(Path.of("data/sessions"));
			assertThat(storage.fsync()).isEqualTo(FsyncPolicy.ALWAYS);
			assertThat(storage.followLinks()).as("no symbolic link is followed").isFalse();
			long heap = Runtime.getRuntime().maxMemory();
			assertThat(storage.cacheSize()).isEqualTo(DataSize.ofBytes(heap / 100 * 40));
			assertThat(storage.maxSessionSize()).isEqualTo(DataSize.ofBytes(heap / 100 * 40));
			ArborProperties.Api api = context.getBean(ArborProperties.class).api();
			assertThat(api.maxRequestBytes()).isEqualTo(DataSize.ofMegabytes(16));
			assertThat(api.requestMemory()).isEqualTo(DataSize.ofBytes(heap / 100 * 25));
			ArborProperties.Events events = context.getBean(ArborProperties.class).events();
			assertThat(events.replayMemory()).isEqualTo(DataSize.ofBytes(Math.min(64L << 20, heap / 100 * 5)));
			assertThat(events.maxStreams()).as("the streams that fit in 20 % of the heap at 16 KB each")
				.isEqualTo((int) Math.max(100, Math.min(10_000, heap / 100 * 20 / (16 * 1024))));
			assertThat(events.maxPending()).isEqualTo(1000);
			assertThat(events.maxPendingBytes()).isEqualTo(DataSize.ofMegabytes(4));
		});
	}

	@Test
	void bindWhenMaxStreamsIsSetShouldTakeItWhateverTheHeap() {
		this.runner.withPropertyValues("arbor.events.max-streams=12345")
			.run(context -> assertThat(context.getBean(ArborProperties.class).events().maxStreams()).isEqualTo(12345));
	}

	@Test
	void bindWhenRequestLimitIsSetShouldTakeASizeOrPlainBytes() {
		this.runner.withPropertyValues("arbor.api.max-request-bytes=64KB")
			.run(context -> assertThat(context.getBean(ArborProperties.class).api().maxRequestBytes())
				.isEqualTo(DataSize.ofKilobytes(64)));
		this.runner.withPropertyValues("arbor.api.max-request-bytes=1000")
			.run(context -> assertThat(context.getBean(ArborProperties.class).api().maxRequestBytes())
				.isEqualTo(DataSize.ofBytes(1000)));
	}

	@Test
	void bindWhenSetShouldTakeLowercaseValuesAndSizes() {
		this.runner
			.withPropertyValues("arbor.storage.dir=/srv/sessions", "arbor.storage.fsync=never",
					"arbor.storage.cache-size=256MB")
			.run(context -> {
				ArborProperties.Storage storage = context.getBean(ArborProperties.class).storage();
				assertThat(storage.dir()).isEqualTo(Path.of("/srv/sessions"));
				assertThat(storage.fsync()).isEqualTo(FsyncPolicy.NEVER);
				assertThat(storage.cacheSize()).isEqualTo(DataSize.ofMegabytes(256));
			});
	}

	@Test
	void bindWhenFsyncIsUnknownShouldFailNamingTheProperty() {
		this.runner.withPropertyValues("arbor.storage.fsync=sometimes")
			.run(context -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessageContaining("sometimes"));
	}

	@Test
	void bindWhenNothingIsSetShouldHaveNoSummaryProviderAndUpstreamsBudget() {
		this.runner.run(context -> {
			ArborProperties.Summary summary = context.getBean(ArborProperties.class).summary();
			assertThat(summary.provider()).isEqualTo(SummaryProvider.NONE);
			assertThat(summary.contextWindow()).isEqualTo(128_000);
			assertThat(summary.reserveTokens()).isEqualTo(16_384);
			assertThat(summary.tokenBudget()).isEqualTo(128_000 - 16_384);
			assertThat(summary.maxOutputTokens()).isEqualTo(2048);
			assertThat(summary.timeout()).isEqualTo(Duration.ofMinutes(5));
		});
	}

	@Test
	void bindWhenTheProviderIsSetShouldTakeItInAnyCase() {
		this.runner.withPropertyValues("arbor.summary.provider=OpenAI")
			.run(context -> assertThat(context.getBean(ArborProperties.class).summary().provider())
				.isEqualTo(SummaryProvider.OPENAI));
	}

	@Test
	void bindWhenTheProviderIsUnknownShouldFailNamingIt() {
		this.runner.withPropertyValues("arbor.summary.provider=gemini")
			.run(context -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessageContaining("gemini"));
	}

	@Test
	void bindWhenTheReserveTakesTheWholeWindowShouldFail() {
		this.runner.withPropertyValues("arbor.summary.context-window=8000", "arbor.summary.reserve-tokens=8000")
			.run(context -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessageContaining("reserve-tokens must be less than context-window"));
	}

	@Configuration(proxyBeanMethods = false)
	@EnableConfigurationProperties(ArborProperties.class)
	static class PropertiesOnly {

	}

}
